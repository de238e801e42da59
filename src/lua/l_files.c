/* l_files.c: the files of a tournament's --out directory, opened so that
 * nothing else can redirect, block or race them, and text made valid UTF-8
 * for the files and the terminal (fields of the host library):
 *
 *   host.open_file(path, mode [, follow]) -> file | nil, message, kind
 *       mode "r" (read) or "a" (append; the file must exist). The file
 *       must be a regular file: it is opened without blocking (a FIFO does
 *       not hang the open) and not through a symbolic link (unless follow),
 *       then checked with fstat. Returns a Lua file (io's methods). kind:
 *       "absent" (no such file or directory), "link", "special" (a FIFO, a
 *       device, a socket, a directory) or "error".
 *   host.write_file(path, text) -> true | nil, message
 *       the whole file at once: written into PATH.tmp, created new
 *       (O_EXCL, O_NOFOLLOW: a link or a file left there is removed, never
 *       followed) in the directory opened once, then renamed over PATH (a
 *       link at PATH is replaced, not followed). A failed write leaves the
 *       old file (or none).
 *   host.lock_file(path) -> lock | nil, message, pid | false, message
 *       an exclusive lock (fcntl F_SETLK) on PATH, a regular file created
 *       if need be, never through a link; a second process is refused,
 *       with the pid of the process that holds it; false when the file
 *       system has no record locks (ENOLCK: some network disks). lock:unlock() or the end
 *       of the lock (a <close> variable, the collector) releases it. Worker
 *       processes forked while it is held do not hold it (record locks are
 *       per process), so a worker that outlives its parent keeps no lock.
 *   host.utf8_fix(text) -> text   (utf8fix.h: the same string when valid) */
#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, openat and friends under -std=c11 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "l_files.h"

/* ---- opening regular files ---- */

/* What a file that is not regular is, for messages. */
static const char *kind_of(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a regular file";
}

/* nil, message, kind; returns 3. */
static int open_failed(lua_State *L, const char *kind, const char *fmt, ...)
{
    luaL_pushfail(L);
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_pushstring(L, kind);
    return 3;
}

/* The message of a failed open of path with errno e (O_NOFOLLOW gives
 * ELOOP for a link as the last part of the path). */
static int open_error(lua_State *L, const char *path, int e)
{
    struct stat st;
    if (e == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return open_failed(L, "link",
                           "%s: a symbolic link, not a regular file (refused: these files are "
                           "never read or written through a link)",
                           path);
    if (e == ENXIO) /* a FIFO opened for writing with no reader */
        return open_failed(L, "special", "%s: not a regular file (a FIFO)", path);
    return open_failed(L, e == ENOENT || e == ENOTDIR ? "absent" : "error", "%s: %s", path,
                       strerror(e));
}

static int close_stream(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    int ok = fclose(p->f) == 0;
    return luaL_fileresult(L, ok, NULL);
}

static int l_open_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *mode = luaL_checkstring(L, 2);
    bool follow = lua_toboolean(L, 3);
    bool append = strcmp(mode, "a") == 0;
    luaL_argcheck(L, append || strcmp(mode, "r") == 0, 2, "mode must be \"r\" or \"a\"");
    if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TNIL)
        return luaL_error(L, "open_file: the io library is not loaded");
    lua_pop(L, 1);
    /* the Lua file first, so that no descriptor leaks on a memory error */
    luaL_Stream *p = lua_newuserdatauv(L, sizeof *p, 0);
    p->f = NULL;
    p->closef = NULL; /* a closed file until it holds one */
    luaL_setmetatable(L, LUA_FILEHANDLE);

    int flags = (append ? O_WRONLY | O_APPEND : O_RDONLY) | O_NONBLOCK | O_CLOEXEC;
    if (!follow) flags |= O_NOFOLLOW;
    int fd;
    do fd = open(path, flags);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return open_error(L, path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return open_failed(L, "error", "%s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode)) return open_failed(L, "special", "%s: %s", path, strerror(EISDIR));
        return open_failed(L, "special", "%s: not a regular file (%s)", path, kind_of(st.st_mode));
    }
    /* a regular file never blocks: back to ordinary reads and writes */
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return open_failed(L, "error", "%s: %s", path, strerror(e));
    }
    p->f = fdopen(fd, append ? "ab" : "rb");
    if (!p->f) {
        int e = errno;
        close(fd);
        return open_failed(L, "error", "%s: %s", path, strerror(e));
    }
    p->closef = close_stream;
    return 1;
}

/* ---- writing a whole file ---- */

/* The directory part of path (".", "/" or the text before its last '/')
 * into dir, and the name after it; false when path ends with '/' or does
 * not fit. */
static bool split_path(const char *path, char *dir, size_t dirsize, const char **name)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dirsize, ".");
        *name = path;
    } else {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= dirsize) return false;
        memcpy(dir, path, n);
        dir[n] = '\0';
        *name = slash + 1;
    }
    return **name != '\0';
}

/* Write all of text to fd: 0 or an errno. */
static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, text, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        text += w;
        len -= (size_t)w;
    }
    return 0;
}

static int write_failed(lua_State *L, const char *fmt, ...)
{
    luaL_pushfail(L);
    va_list ap;
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    return 2;
}

/* Create name (in the directory dirfd) as a new regular file for writing:
 * something already there (a file left by a run that died, or a link) is
 * removed first, never followed. A descriptor, or -1 with errno set. */
static int create_new(int dirfd, const char *name)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno == EINTR) {
            if (fd >= 0) return fd;
            attempt--;
            continue;
        }
        if (errno != EEXIST) return -1;
        struct stat st;
        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return -1;
        }
        if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT) return -1;
    }
    errno = EEXIST; /* made again between the removal and the open: another writer */
    return -1;
}

static int l_write_file(lua_State *L)
{
    size_t len, plen;
    const char *path = luaL_checklstring(L, 1, &plen);
    const char *text = luaL_checklstring(L, 2, &len);
    char *dir = lua_newuserdatauv(L, plen + 2, 0);
    const char *name;
    if (!split_path(path, dir, plen + 2, &name))
        return write_failed(L, "%s: not a file name (it ends with '/')", path);
    const char *tmp = lua_pushfstring(L, "%s.tmp", name);
    int dirfd;
    do dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (dirfd < 0 && errno == EINTR);
    if (dirfd < 0) return write_failed(L, "%s: %s", dir, strerror(errno));
    int fd = create_new(dirfd, tmp);
    if (fd < 0) {
        int e = errno;
        close(dirfd);
        return write_failed(L, "%s.tmp: %s", path, strerror(e));
    }
    int e = write_all(fd, text, len);
    if (close(fd) != 0 && !e && errno != EINTR) e = errno;
    if (!e && renameat(dirfd, tmp, dirfd, name) != 0) e = errno;
    if (e) {
        unlinkat(dirfd, tmp, 0);
        close(dirfd);
        return write_failed(L, "%s: %s", path, strerror(e));
    }
    close(dirfd);
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- the lock ---- */

#define LOCK_META "marubatsu.Lock"

typedef struct Lock {
    int fd; /* -1 once released */
} Lock;

static int lock_release(lua_State *L)
{
    Lock *k = luaL_checkudata(L, 1, LOCK_META);
    if (k->fd >= 0) {
        close(k->fd); /* releases the process's record locks on the file */
        k->fd = -1;
    }
    return 0;
}

static int l_lock_file(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    Lock *k = lua_newuserdatauv(L, sizeof *k, 0);
    k->fd = -1;
    luaL_setmetatable(L, LOCK_META);
    int fd;
    do fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        open_error(L, path, errno);
        lua_pop(L, 1); /* the kind */
        return 2;
    }
    k->fd = fd;
    struct stat st;
    if (fstat(fd, &st) != 0) return write_failed(L, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return write_failed(L, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
    /* the holder may let go between a refused lock and the question who
     * holds it: then try again */
    for (int attempt = 0; attempt < 5; attempt++) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        if (fcntl(fd, F_SETLK, &fl) == 0) {
            /* for people: the holder's pid in the file (the lock itself
             * is what counts) */
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) == 0) (void)!pwrite(fd, pid, (size_t)n, 0);
            return 1;
        }
        if (errno == EINTR) continue;
        if (errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOSYS) {
            /* a file system without record locks (some network disks):
             * false, so that the caller can go on without one */
            lua_pushboolean(L, 0);
            lua_pushfstring(L, "%s: cannot lock it: %s", path, strerror(errno));
            return 2;
        }
        if (errno != EACCES && errno != EAGAIN)
            return write_failed(L, "%s: cannot lock it: %s", path, strerror(errno));
        struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        if (fcntl(fd, F_GETLK, &who) != 0)
            return write_failed(L, "%s: cannot lock it: %s", path, strerror(errno));
        if (who.l_type != F_UNLCK) {
            luaL_pushfail(L);
            lua_pushfstring(L, "%s: locked by process %d", path, (int)who.l_pid);
            lua_pushinteger(L, who.l_pid);
            return 3;
        }
    }
    return write_failed(L, "%s: cannot lock it: another process keeps taking it", path);
}

/* ---- UTF-8 ---- */

static int l_utf8_fix(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    size_t valid = utf8_valid_prefix(s, n);
    if (valid == n) {
        lua_settop(L, 1);
        return 1;
    }
    size_t need = valid + utf8_fix(s + valid, n - valid, NULL, 0);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, need + 1);
    memcpy(out, s, valid);
    utf8_fix(s + valid, n - valid, out + valid, need - valid + 1);
    luaL_pushresultsize(&b, need);
    return 1;
}

void lmb_open_files(lua_State *L)
{
    if (luaL_newmetatable(L, LOCK_META)) {
        static const luaL_Reg methods[] = {{"unlock", lock_release},
                                           {"__close", lock_release},
                                           {"__gc", lock_release},
                                           {NULL, NULL}};
        luaL_setfuncs(L, methods, 0);
        lua_pushvalue(L, -1);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    static const luaL_Reg fns[] = {
        {"open_file", l_open_file},
        {"write_file", l_write_file},
        {"lock_file", l_lock_file},
        {"utf8_fix", l_utf8_fix},
        {NULL, NULL},
    };
    luaL_setfuncs(L, fns, 0);
}
