/* SPDX-License-Identifier: GPL-2.0-only */
/* schema.c — every table of a store at version PB_SCHEMA_VERSION (docs/schema.md). */
#include "store.h"

/* Tables that came with version 6, defined once: in the schema of a new store and in the migration
 * 5 -> 6 (pb_schema_v6_tables_sql). objects: the identity of every file of user code a run timed
 * (run/objects.h); baselines: named stored runs (bench baseline save, bench gate --against). */
#define OBJECTS_DDL \
    "CREATE TABLE IF NOT EXISTS objects (\n" \
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n" \
    "  impl TEXT NOT NULL, path TEXT NOT NULL, real_path TEXT, size_bytes INTEGER,\n" \
    "  sha256 TEXT, elf TEXT, build_id TEXT,\n" \
    "  compiler TEXT, flags TEXT, flags_source TEXT, producers TEXT, comment TEXT, needed TEXT, build_type TEXT,\n" \
    "  revision TEXT, repo TEXT,\n" \
    "  PRIMARY KEY (run_id, impl)\n" \
    ");\n"

#define BASELINES_DDL \
    "CREATE TABLE IF NOT EXISTS baselines (\n" \
    "  name TEXT PRIMARY KEY,\n" \
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n" \
    "  saved_at TEXT NOT NULL,\n" \
    "  command_line TEXT\n" \
    ");\n"

/* Version 11 (docs/counts.md): where a case's instructions went, per function (callgrind's exclusive
 * cost per op, run/callgrind_fn.h); rank 1 the most, then down; rank 0 the rest of the case's
 * functions as one row, so that a case's rows sum to its insns_per_op. */
#define FUNC_COUNTS_DDL \
    "CREATE TABLE IF NOT EXISTS func_counts (\n" \
    "  case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,\n" \
    "  rank INTEGER NOT NULL, func TEXT NOT NULL,\n" \
    "  insns_per_op REAL NOT NULL, l1_miss_per_op REAL, ll_miss_per_op REAL, branch_miss_per_op REAL,\n" \
    "  PRIMARY KEY (case_id, rank)\n" \
    ");\n"

/* The current layout of every core table (version PB_SCHEMA_VERSION); see docs/schema.md for the
 * meaning of every column. A new database gets this and the gate's tables; an older one is brought
 * here by migrate.c's MIGRATIONS, never by editing this text alone. */
const char *const pb_store_schema_sql =
    "CREATE TABLE IF NOT EXISTS runs (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  suite TEXT NOT NULL,\n"
    "  status TEXT NOT NULL CHECK (status IN ('incomplete','complete','failed')),\n"
    "  status_reason TEXT,\n"
    "  started_at TEXT NOT NULL,\n"
    "  ended_at TEXT,\n"
    "  target TEXT NOT NULL DEFAULT 'userspace',\n"
    "  command_line TEXT, options TEXT,\n"
    "  metrics INTEGER NOT NULL DEFAULT 0, baseline TEXT, candidate TEXT, primary_metric TEXT,\n"
    "  git_sha TEXT, git_dirty INTEGER, version TEXT, compiler TEXT, cflags TEXT, buildtype TEXT, libs TEXT,\n"
    "  cpu_model TEXT, cpu_flags TEXT, online_cpus INTEGER, kernel TEXT, hostname TEXT, virt TEXT,\n"
    "  clock_source TEXT, governor TEXT, boost TEXT,\n"
    "  tick_source TEXT, tsc_hz REAL, counter_source TEXT,\n"
    "  guest_kernel TEXT,\n"
    "  machine_id TEXT,\n"
    "  job_id TEXT,\n"
    "  suite_settings TEXT,\n"
    "  uuid TEXT,\n"
    "  cpu_affinity TEXT, loadavg_start REAL, loadavg_end REAL, noise TEXT,\n"
    "  layouts TEXT,\n"
    "  cpu_vendor TEXT, cpu_family INTEGER, cpu_model_number INTEGER, cpu_stepping INTEGER, cpu_microcode TEXT,\n"
    "  cache_l1d_bytes INTEGER, cache_l1i_bytes INTEGER, cache_l2_bytes INTEGER, cache_l3_bytes INTEGER,\n"
    "  threads_per_core INTEGER, hypervisor TEXT,\n"
    "  user_revision TEXT, user_label TEXT, user_repo TEXT, build_parity TEXT\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS cases (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  suite TEXT NOT NULL, impl TEXT NOT NULL, variant TEXT NOT NULL, op TEXT NOT NULL,\n"
    "  size_bytes INTEGER NOT NULL,\n"
    "  iterations INTEGER,\n"
    "  status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok','unavailable')),\n"
    "  reason TEXT,\n"
    "  layouts INTEGER NOT NULL DEFAULT 1,\n"
    "  UNIQUE (run_id, impl, variant, op, size_bytes)\n"
    ");\n"
    /* bench history's and report's reads of one suite's impl: without it, a scan of every stats row */
    "CREATE INDEX IF NOT EXISTS cases_suite_impl ON cases(suite, impl);\n"
    "CREATE TABLE IF NOT EXISTS samples (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,\n"
    "  round INTEGER NOT NULL, position INTEGER NOT NULL, repetition INTEGER NOT NULL DEFAULT 0,\n"
    "  iterations INTEGER NOT NULL, ns REAL NOT NULL, cpu_ns REAL, tsc REAL,\n"
    "  cycles REAL, instructions REAL,\n"
    "  probe_before REAL, probe_after REAL, speed TEXT,\n"
    "  errors INTEGER NOT NULL DEFAULT 0,\n"
    "  layout INTEGER NOT NULL DEFAULT 0,\n"
    "  wait_ns REAL, steal_ns REAL,\n"
    "  user_ns REAL, sys_ns REAL,\n"
    "  tprobe_before REAL, tprobe_after REAL\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS samples_case ON samples(case_id);\n"
    "CREATE TABLE IF NOT EXISTS sample_metrics (\n"
    "  sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,\n"
    "  metric TEXT NOT NULL, value REAL NOT NULL,\n"
    "  PRIMARY KEY (sample_id, metric)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE IF NOT EXISTS stats (\n"
    "  case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,\n"
    "  metric TEXT NOT NULL, unit TEXT NOT NULL, source TEXT NOT NULL,\n"
    "  n INTEGER NOT NULL, median REAL, p10 REAL, p90 REAL, min REAL, max REAL,\n"
    "  n_fast INTEGER, median_fast REAL,\n"
    "  PRIMARY KEY (case_id, metric)\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS ratios (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  suite TEXT NOT NULL, variant TEXT NOT NULL, op TEXT NOT NULL, size_bytes INTEGER NOT NULL,\n"
    "  metric TEXT NOT NULL, baseline TEXT NOT NULL, candidate TEXT NOT NULL,\n"
    "  n_pairs INTEGER NOT NULL, estimate REAL, ci_lo REAL, ci_hi REAL, conf REAL, p_value REAL,\n"
    "  median_ratio REAL, method TEXT NOT NULL,\n"
    "  layouts INTEGER NOT NULL DEFAULT 1, layout_lo REAL, layout_hi REAL, per_layout TEXT,\n"
    "  shared_pairs INTEGER\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS ratios_run ON ratios(run_id);\n"
    OBJECTS_DDL
    FUNC_COUNTS_DDL
    "CREATE VIEW IF NOT EXISTS summary AS\n"
    "  SELECT r.id AS run_id, c.suite, c.impl, c.variant, c.op, c.size_bytes,\n"
    "         s.metric, s.unit, s.n, s.median, s.p10, s.p90\n"
    "  FROM runs r JOIN cases c ON c.run_id = r.id JOIN stats s ON s.case_id = c.id\n"
    "  WHERE r.status = 'complete';\n"
    "CREATE VIEW IF NOT EXISTS summary_ratios AS\n"
    "  SELECT q.* FROM ratios q JOIN runs r ON r.id = q.run_id WHERE r.status = 'complete';\n";

/* The gate's tables (gate/gate_store.c reads and writes them) at the current schema version; the
 * store creates them with the core tables and migrates them (migrate.c's MIGRATIONS list) with the
 * rest of the file: the store owns every table's definition, so no lower floor reaches up. */
const char *const pb_gate_tables_sql =
    "CREATE TABLE IF NOT EXISTS comparisons (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  created_at TEXT NOT NULL,\n"
    "  command TEXT NOT NULL CHECK (command IN ('compare','gate')),\n"
    "  gate TEXT CHECK (gate IN ('claim','commit','aa')),\n"
    "  suite TEXT NOT NULL, metric TEXT NOT NULL,\n"
    "  pairing TEXT NOT NULL CHECK (pairing IN ('round','alternation','medians')),\n"
    "  alpha REAL NOT NULL, conf REAL NOT NULL, power REAL NOT NULL,\n"
    "  correction TEXT NOT NULL DEFAULT 'holm',\n"
    "  ncells INTEGER NOT NULL,\n"
    "  thresholds TEXT,\n"
    "  verdict TEXT NOT NULL CHECK (verdict IN ('pass','regression','inconclusive','error','none')),\n"
    "  exit_status INTEGER,\n"
    "  machine_id TEXT, job_id TEXT,\n"
    "  command_line TEXT, note TEXT,\n"
    "  baseline TEXT\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS comparison_runs (\n"
    "  comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  side TEXT NOT NULL CHECK (side IN ('baseline','candidate','both')),\n"
    "  alternation INTEGER,\n"
    "  PRIMARY KEY (comparison_id, run_id, side)\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS comparison_cells (\n"
    "  comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,\n"
    "  baseline TEXT NOT NULL, candidate TEXT NOT NULL,\n"
    "  variant TEXT NOT NULL, op TEXT NOT NULL, size_bytes INTEGER NOT NULL,\n"
    "  n_pairs INTEGER NOT NULL, rounds INTEGER,\n"
    "  ratio REAL, ci_lo REAL, ci_hi REAL, conf REAL, p_value REAL, p_holm REAL,\n"
    "  se_log REAL, noise REAL, order_effect REAL, mdc REAL, calibrated_mdc REAL, threshold REAL,\n"
    "  change TEXT NOT NULL,\n"
    "  verdict TEXT NOT NULL CHECK (verdict IN ('pass','regression','inconclusive','no data','untested','compared')),\n"
    "  note TEXT,\n"
    "  PRIMARY KEY (comparison_id, baseline, candidate, variant, op, size_bytes)\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS calibrations (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  created_at TEXT NOT NULL,\n"
    "  machine_id TEXT, job_id TEXT,\n"
    "  suite TEXT NOT NULL, metric TEXT NOT NULL,\n"
    "  pairing TEXT NOT NULL CHECK (pairing IN ('round','alternation')),\n"
    "  impl TEXT NOT NULL, variant TEXT NOT NULL, op TEXT NOT NULL, size_bytes INTEGER NOT NULL,\n"
    "  repeats INTEGER NOT NULL, n_pairs INTEGER,\n"
    "  se_log REAL, noise REAL, mdc REAL,\n"
    "  worst_ratio REAL,\n"
    "  false_alarms INTEGER NOT NULL, inconclusive INTEGER NOT NULL,\n"
    "  threshold REAL,\n"
    "  first_comparison INTEGER REFERENCES comparisons(id) ON DELETE SET NULL,\n"
    "  last_comparison INTEGER REFERENCES comparisons(id) ON DELETE SET NULL\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS calibrations_cell ON calibrations(machine_id, suite, variant, op, size_bytes);\n"
    BASELINES_DDL;

const char *const pb_schema_v6_tables_sql = OBJECTS_DDL BASELINES_DDL;
const char *const pb_schema_v11_tables_sql = FUNC_COUNTS_DDL;
