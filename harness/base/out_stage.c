/* SPDX-License-Identifier: GPL-2.0-only */
/* out_stage.c — files written where the user says, through a private folder beside their targets
 * and renamed over nothing but regular files (out_stage.h, docs/outputs.md). */
#include "out_stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* a refusal is the user's path at fault (exit 2), not a failed write */
#define REFUSE(s, e, ...) ((s)->refused = 1, pb_errf((e), __VA_ARGS__))

const char *pb_file_kind(mode_t m)
{
    if (S_ISREG(m)) return "a regular file";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

const char *pb_stage_shown(const pb_stage *s, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", s->shown, name);
    return buf;
}

const char *pb_stage_staged_path(const pb_stage *s, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", s->path, name);
    return buf;
}

int pb_stage_open(pb_stage *s, const char *dir, const char *opt, int flags, pb_err *e)
{
    memset(s, 0, sizeof *s);
    s->dirfd = s->fd = -1;
    s->opt = opt;
    if (!dir || !*dir) return REFUSE(s, e, "%s: an empty path names no folder", opt);
    /* '-' is standard output for a single file; a folder of files cannot go there */
    if (!strcmp(dir, "-"))
        return REFUSE(s, e, "%s -: standard output cannot hold a folder of files (./- names a folder called '-')", opt);
    if (strlen(dir) >= sizeof s->dir) return REFUSE(s, e, "%s: the path is too long (%zu bytes)", opt, strlen(dir));
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    snprintf(s->shown, sizeof s->shown, "%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
    if ((flags & PB_STAGE_MKDIR) && mkdir(dir, 0755) == 0) s->made = 1;
    else if ((flags & PB_STAGE_MKDIR) && errno != EEXIST)
        return REFUSE(s, e, "%s %s: cannot create the folder: %s", opt, dir, strerror(errno));
    /* O_DIRECTORY: a FIFO or device named as the folder fails here, without being opened */
    s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (s->dirfd < 0)
        return REFUSE(s, e, "%s %s: %s", opt, dir, errno == ENOTDIR ? "not a folder" : strerror(errno));
    return 0;
}

int pb_stage_check(pb_stage *s, const char *name, pb_err *e)
{
    char shown[1300];
    pb_stage_shown(s, name, shown, sizeof shown);
    if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return REFUSE(s, e, "%s %s: names a folder, not a file", s->opt, shown);
    if (strlen(name) >= sizeof s->files[0]) return REFUSE(s, e, "%s %s: file name too long", s->opt, shown);
    struct stat sb;
    if (fstatat(s->dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISREG(sb.st_mode)) return 0;
        return REFUSE(s, e,
                      "%s: %s is %s: refused (bench replaces only a regular file, never a link, device, FIFO "
                      "or folder; docs/outputs.md)",
                      s->opt, shown, pb_file_kind(sb.st_mode));
    }
    if (errno == ENOENT) return 0;
    return REFUSE(s, e, "%s %s: %s", s->opt, shown, strerror(errno));
}

int pb_stage_open_file(pb_stage *s, const char *path, const char *opt, const char **name, pb_err *e)
{
    char dir[1024];
    const char *slash = path ? strrchr(path, '/') : NULL;
    *name = NULL;
    if (!path || !*path) {
        memset(s, 0, sizeof *s);
        s->dirfd = s->fd = -1;
        return REFUSE(s, e, "%s: an empty path names no file", opt);
    }
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (pb_stage_open(s, dir, opt, 0, e) < 0) return -1;
    if (!slash) s->shown[0] = 0;   /* messages name the file as the user did */
    *name = slash ? slash + 1 : path;
    /* checked now: a refused target makes no private folder either */
    return pb_stage_check(s, *name, e);
}

/* the private folder, made on the first file staged: a refusal before it creates nothing */
static int ensure_private(pb_stage *s, pb_err *e)
{
    if (s->fd >= 0) return 0;
    for (int tries = 0; tries < 64; tries++) {
        uint32_t r;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) r = (uint32_t)(pb_now_ns() ^ ((uint64_t)getpid() << 20));
        snprintf(s->name, sizeof s->name, ".bench-%08x", (unsigned)r);
        if (mkdirat(s->dirfd, s->name, 0700) == 0) {
            s->fd = openat(s->dirfd, s->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (s->fd < 0) {
                int err = errno;
                unlinkat(s->dirfd, s->name, AT_REMOVEDIR);
                return pb_errf(e, "%s %s: cannot write there: %s", s->opt, s->dir, strerror(err));
            }
            snprintf(s->path, sizeof s->path, "%s/%s", s->dir, s->name);
            return 0;
        }
        if (errno != EEXIST) return REFUSE(s, e, "%s %s: cannot write there: %s", s->opt, s->dir, strerror(errno));
    }
    return pb_errf(e, "%s %s: cannot make a private folder there", s->opt, s->dir);
}

int pb_stage_add(pb_stage *s, const char *name, pb_err *e)
{
    if (pb_stage_check(s, name, e) < 0 || ensure_private(s, e) < 0) return -1;
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->files[i], name)) return 0;
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 16;
        char(*nf)[256] = realloc(s->files, nc * sizeof *nf);
        if (!nf) return pb_errf(e, "out of memory");
        s->files = nf;
        s->cap = nc;
    }
    snprintf(s->files[s->n++], sizeof s->files[0], "%s", name);
    return 0;
}

int pb_stage_create(pb_stage *s, const char *name, pb_err *e)
{
    if (pb_stage_add(s, name, e) < 0) return -1;
    int fd = openat(s->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        char shown[1300];
        return pb_errf(e, "cannot write %s: %s", pb_stage_shown(s, name, shown, sizeof shown), strerror(errno));
    }
    return fd;
}

FILE *pb_stage_fopen(pb_stage *s, const char *name, pb_err *e)
{
    int fd = pb_stage_create(s, name, e);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        pb_errf(e, "out of memory opening %s", name);
    }
    return f;
}

int pb_stage_fclose(pb_stage *s, FILE *f, const char *name, pb_err *e)
{
    int failed = ferror(f), err = errno;
    if (fclose(f) != 0) { failed = 1; err = errno; }
    char shown[1300];
    return failed ? pb_errf(e, "cannot write %s: %s", pb_stage_shown(s, name, shown, sizeof shown), strerror(err)) : 0;
}

/* staged file i is whole (a regular file in the private folder) and its target may be replaced */
static int ready(pb_stage *s, size_t i, pb_err *e)
{
    struct stat sb;
    char shown[1300];
    if (fstatat(s->fd, s->files[i], &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
        return pb_errf(e, "%s was not written", pb_stage_shown(s, s->files[i], shown, sizeof shown));
    return pb_stage_check(s, s->files[i], e);
}

static int rename_into_place(pb_stage *s, size_t i, pb_err *e)
{
    if (renameat(s->fd, s->files[i], s->dirfd, s->files[i]) == 0) {
        s->committed++;
        return 0;
    }
    char shown[1300];
    return pb_errf(e, "cannot write %s: %s", pb_stage_shown(s, s->files[i], shown, sizeof shown), strerror(errno));
}

int pb_stage_commit(pb_stage *s, pb_err *e)
{
    for (size_t i = 0; i < s->n; i++)
        if (ready(s, i, e) < 0) return -1;
    int rc = 0;
    size_t kept = 0;
    for (size_t i = 0; i < s->n; i++)
        if (rc < 0 || rename_into_place(s, i, e) < 0) {
            rc = -1;   /* the rest stay staged: pb_stage_close removes them */
            memmove(s->files[kept++], s->files[i], sizeof s->files[0]);
        }
    s->n = kept;
    return rc;
}

int pb_stage_commit_one(pb_stage *s, const char *name, pb_err *e)
{
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->files[i], name)) continue;
        int rc = ready(s, i, e) < 0 || rename_into_place(s, i, e) < 0 ? -1 : 0;
        if (rc == 0) memmove(s->files[i], s->files[i + 1], (s->n - i - 1) * sizeof s->files[0]), s->n--;
        return rc;
    }
    return pb_errf(e, "%s was not staged", name);
}

void pb_stage_discard(pb_stage *s)
{
    for (size_t i = 0; i < s->n && s->fd >= 0; i++) unlinkat(s->fd, s->files[i], 0);
    s->n = 0;
}

void pb_stage_close(pb_stage *s)
{
    pb_stage_discard(s);
    if (s->fd >= 0) {
        /* whatever else a program left in the private folder goes with it */
        int dfd = dup(s->fd);
        DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
        if (!d && dfd >= 0) close(dfd);
        for (struct dirent *de; d && (de = readdir(d));)
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) unlinkat(s->fd, de->d_name, 0);
        if (d) closedir(d);
        close(s->fd);
        unlinkat(s->dirfd, s->name, AT_REMOVEDIR);
        s->fd = -1;
    }
    if (s->dirfd >= 0) close(s->dirfd);
    s->dirfd = -1;
    if (s->made && !s->committed) rmdir(s->dir);   /* only if empty: what someone put there stays */
    s->made = 0;
    free(s->files);
    s->files = NULL;
    s->n = s->cap = 0;
}

int pb_append_file(const char *path, const char *what, const void *buf, size_t n, int *refused, pb_err *e)
{
    *refused = 0;
    if (!path || !*path) return *refused = 1, pb_errf(e, "%s: an empty path names no file", what);
    /* O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of waiting for one */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (fd < 0) {
        int err = errno;
        *refused = err == ELOOP || err == EISDIR || err == ENXIO || err == ENOENT || err == ENOTDIR;
        return pb_errf(e, "%s %s: %s%s", what, path, err == ELOOP ? "a symbolic link" : strerror(err),
                       *refused ? ": refused (bench appends only to a regular file; docs/outputs.md)" : "");
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int err = errno;
        close(fd);
        return pb_errf(e, "%s %s: %s", what, path, strerror(err));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        *refused = 1;
        return pb_errf(e, "%s %s: %s: refused (bench appends only to a regular file; docs/outputs.md)", what, path,
                       pb_file_kind(sb.st_mode));
    }
    const char *p = buf;
    for (size_t left = n; left > 0;) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int err = w < 0 ? errno : EIO;
            close(fd);
            return pb_errf(e, "%s %s: %s", what, path, strerror(err));
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0) return pb_errf(e, "%s %s: %s", what, path, strerror(errno));
    return 0;
}
