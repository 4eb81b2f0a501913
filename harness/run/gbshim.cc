/* SPDX-License-Identifier: GPL-2.0-only */
// gbshim.cc — the only C++ file: adapts Google Benchmark 1.7 to the C API in gbshim.h.
#include "gbshim.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <string>
#include <vector>

struct pb_gb_state {
    benchmark::State *s;
};

namespace {

struct Registered {
    pb_gb_fn fn;
    void *arg;
};

// Google Benchmark reports a run by name, not by the argument it was registered with: this map gives
// the argument back. It is process-wide because GB's registry is; pb_gb_clear empties both together.
std::map<std::string, Registered> &registry()
{
    static std::map<std::string, Registered> r;
    return r;
}

class CallbackReporter : public benchmark::BenchmarkReporter {
  public:
    CallbackReporter(pb_gb_result_cb cb, pb_gb_context_cb ctx_cb, void *user)
        : cb_(cb), ctx_cb_(ctx_cb), user_(user) {}

    bool ReportContext(const Context &c) override
    {
        if (ctx_cb_) {
            pb_gb_context pc{};
            pc.num_cpus = c.cpu_info.num_cpus;
            pc.mhz_per_cpu = c.cpu_info.cycles_per_second / 1e6;
            pc.cpu_scaling_enabled = c.cpu_info.scaling == benchmark::CPUInfo::ENABLED;
#ifdef NDEBUG
            pc.build_type = "release";
#else
            pc.build_type = "debug";
#endif
            ctx_cb_(&pc, user_);
        }
        return true;
    }

    void ReportRuns(const std::vector<Run> &runs) override
    {
        for (const Run &run : runs) {
            pb_gb_result r{};
            std::string fname = run.run_name.function_name;
            auto it = registry().find(fname);
            r.name = fname.c_str();
            r.arg = it == registry().end() ? nullptr : it->second.arg;
            r.is_aggregate = run.run_type == Run::RT_Aggregate;
            r.aggregate_name = run.aggregate_name.c_str();
            r.repetition_index = r.is_aggregate ? -1 : run.repetition_index;
            r.repetitions = run.repetitions;
            r.iterations = run.iterations;
            r.real_seconds = run.real_accumulated_time;
            r.cpu_seconds = run.cpu_accumulated_time;
            r.error = run.error_occurred;
            r.error_message = run.error_message.c_str();
            int n = 0;
            for (const auto &kv : run.counters) {
                if (n == PB_GB_MAX_COUNTERS) break;
                r.counter_name[n] = kv.first.c_str();
                r.counter_value[n] = kv.second.value;
                n++;
            }
            r.ncounters = n;
            cb_(&r, user_);
            delivered++;
        }
    }

    int delivered = 0;

  private:
    pb_gb_result_cb cb_;
    pb_gb_context_cb ctx_cb_;
    void *user_;
};

constexpr int kMaxRepetitions = 100000;

bool repetitions_ok(const char *v)
{
    char *end;
    errno = 0;
    long n = std::strtol(v, &end, 10);
    return *v >= '0' && *v <= '9' && !*end && errno == 0 && n >= 1 && n <= kMaxRepetitions;
}

// Is arg "--NAME" or "--NAME=..." for a NAME of keep (NULL-terminated; NULL: none)?
bool kept(const char *arg, const char *const *keep)
{
    size_t n = std::strcspn(arg + 2, "=");
    for (; keep && *keep; keep++)
        if (std::strlen(*keep) == n && std::strncmp(arg + 2, *keep, n) == 0) return true;
    return false;
}

} // namespace

extern "C" int pb_gb_init(int *argc, char **argv)
{
    return pb_gb_init_keeping(argc, argv, nullptr);
}

extern "C" int pb_gb_init_keeping(int *argc, char **argv, const char *const *keep)
{
    // Hand GB only its own flags: GB exits on --help, which is ours.
    std::vector<char *> gb_args{argv[0]};
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (std::strncmp(argv[i], "--benchmark_", 12) == 0 && kept(argv[i], keep)) {
            argv[out++] = argv[i];
            continue;
        }
        if (std::strncmp(argv[i], "--benchmark_repetitions=", 24) == 0 && !repetitions_ok(argv[i] + 24)) {
            // GB takes 0 (no sample at all) and aborts on a negative count: refuse both here
            std::fprintf(stderr, "bench: --benchmark_repetitions wants a whole number from 1 to %d, got '%s'\n",
                         kMaxRepetitions, argv[i] + 24);
            return -1;
        }
        if (std::strncmp(argv[i], "--benchmark_out", 15) == 0) {
            // GB would rewrite that file for every cell, one entry per round, the iteration count in
            // each name: nothing compare.py can match. The store has every sample instead.
            std::fprintf(stderr, "bench: %s is not passed to Google Benchmark (it would hold one cell's rounds "
                                 "only); use bench export --format gbench after the run\n", argv[i]);
            return -1;
        }
        if (std::strncmp(argv[i], "--benchmark_", 12) == 0)
            gb_args.push_back(argv[i]);
        else
            argv[out++] = argv[i];
    }
    argv[out] = nullptr;
    *argc = out;
    int gb_argc = static_cast<int>(gb_args.size());
    gb_args.push_back(nullptr);
    try {
        benchmark::Initialize(&gb_argc, gb_args.data());
    } catch (const std::exception &x) {
        std::fprintf(stderr, "bench: Google Benchmark refused its flags: %s\n", x.what());
        return -1;
    }
    if (gb_argc > 1) {
        // GB leaves what it could not parse: a misspelt --benchmark_ flag.
        benchmark::ReportUnrecognizedArguments(gb_argc, gb_args.data());
        return -1;
    }
    return 0;
}

extern "C" int pb_gb_register(const char *name, pb_gb_fn fn, void *arg, uint64_t iterations)
try {
    std::string n(name);
    if (registry().count(n)) return -1;
    registry()[n] = Registered{fn, arg};
    auto *b = benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &s) {
        pb_gb_state st{&s};
        fn(&st, arg);
    });
    if (!b) return -1;
    b->UseRealTime();
    if (iterations) b->Iterations(static_cast<benchmark::IterationCount>(iterations));
    return 0;
} catch (const std::exception &x) {
    // no C++ exception may cross into C: it would end the process without a word or a stored status
    std::fprintf(stderr, "bench: cannot register %s: %s\n", name, x.what());
    return -1;
}

extern "C" int pb_gb_run(pb_gb_result_cb cb, pb_gb_context_cb ctx_cb, void *user)
{
    CallbackReporter rep(cb, ctx_cb, user);
    try {
        benchmark::RunSpecifiedBenchmarks(&rep);
    } catch (const std::exception &x) {
        std::fprintf(stderr, "bench: Google Benchmark failed: %s\n", x.what());
        return -1;
    } catch (...) {
        std::fprintf(stderr, "bench: Google Benchmark failed (unknown exception)\n");
        return -1;
    }
    return rep.delivered;
}

extern "C" int pb_gb_run_console(void)
{
    try {
        benchmark::RunSpecifiedBenchmarks();
    } catch (const std::exception &x) {
        std::fprintf(stderr, "Google Benchmark failed: %s\n", x.what());
        return -1;
    } catch (...) {
        std::fprintf(stderr, "Google Benchmark failed (unknown exception)\n");
        return -1;
    }
    return 0;
}

extern "C" void pb_gb_clear(void)
{
    benchmark::ClearRegisteredBenchmarks();
    registry().clear();
}

extern "C" int pb_gb_keep_running_batch(pb_gb_state *st, uint64_t n)
{
    return st->s->KeepRunningBatch(static_cast<benchmark::IterationCount>(n));
}

extern "C" uint64_t pb_gb_max_iterations(const pb_gb_state *st)
{
    return static_cast<uint64_t>(st->s->max_iterations);
}

extern "C" void pb_gb_set_counter(pb_gb_state *st, const char *name, double value)
{
    st->s->counters[name] = benchmark::Counter(value);
}

extern "C" void pb_gb_skip_with_error(pb_gb_state *st, const char *msg)
{
    st->s->SkipWithError(msg);
}
