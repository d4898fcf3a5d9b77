# SPDX-License-Identifier: MIT
"""Output files that appear whole or not at all.

    with atomic.create(path, force=False) as out:
        out.file.write(...)          # a private, seekable file
        out.commit()                 # only now does `path` show the new contents

On Linux the bytes go to an unnamed file (O_TMPFILE) in the destination's directory,
linked into place through /proc/self/fd only by commit(): an error, an exception, a
signal or a kill -9 before that leaves nothing on disk. (Replacing an existing file
links the finished file under a hidden name, then renames it over the old one: only a
kill -9 between those two calls leaves it, complete, under the hidden name.)
Elsewhere (or on a file system without O_TMPFILE) a hidden named file
`.motebox-<random>.tmp` (mode 0600, O_EXCL|O_NOFOLLOW) is used and removed on errors,
Ctrl-C, SIGTERM and SIGHUP (after `cleanup_on_signals()`); only a kill -9 can leave it.

Rules for `path` (the CLI's documented behaviour):
- it exists: refused unless force;
- it is a directory, device, pipe or socket: refused, even with force;
- it is a symbolic link: refused unless force. With force and follow_symlink (seal,
  open), the file the link points to is replaced, through a temporary file in the
  target's own directory (so the link stays and a link to another file system works);
  a dangling link is refused. Without follow_symlink (keygen) the link itself is
  replaced by the new file: a secret is never written through a link.
- a replaced file keeps its permission bits; a new file gets 0666 & ~umask unless the
  caller gives `mode` (keygen: 0600 for secrets).
"""
import errno
import os
import secrets
import signal
import stat

from .errors import OutputRefused

USE_O_TMPFILE = hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NO_WRITE = (errno.EACCES, errno.EPERM, errno.EROFS)


class Interrupted(BaseException):
    """SIGTERM / SIGHUP turned into an exception, so that cleanups run."""

    def __init__(self, signo):
        super().__init__(f"interrupted by {signal.Signals(signo).name}")
        self.exit_status = 128 + signo


def cleanup_on_signals():
    """Turn SIGTERM and SIGHUP into Interrupted (Ctrl-C is KeyboardInterrupt already),
    so a named temporary file is removed on those too."""
    def raise_interrupted(signo, _frame):
        raise Interrupted(signo)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), raise_interrupted)


def umask():
    """The process umask (read without a window in which it is changed, where possible)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _lstat(path):
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


class Output:
    """See the module doc; made by create()."""

    def __init__(self, path, force=False, mode=None, follow_symlink=True):
        self.path = path = os.fspath(path)
        self.target = path
        st = _lstat(path)
        if st is not None and stat.S_ISLNK(st.st_mode):
            if not force:
                raise OutputRefused(f"{path} exists (a symbolic link; --force replaces "
                                    f"the file it points to)" if follow_symlink else
                                    f"{path} exists (a symbolic link; use --force to "
                                    f"replace it)")
            if follow_symlink:
                self.target = os.path.realpath(path)
                st = _lstat(self.target)
                if st is None:
                    raise OutputRefused(f"{path} is a dangling symbolic link (to "
                                        f"{self.target}): not writing through it")
        if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISLNK(st.st_mode):
            raise OutputRefused(f"{path} is {_kind(st.st_mode)}: motebox writes regular "
                                f"files only (use - for standard output)")
        if st is not None and not force and not stat.S_ISLNK(st.st_mode):
            raise OutputRefused(f"{path} exists (use --force to replace it)")
        self.replace = st is not None
        self.dir = os.path.dirname(self.target) or "."
        if not os.path.isdir(self.dir):
            raise OutputRefused(f"{path}: directory {self.dir} does not exist")
        if mode is None:
            mode = stat.S_IMODE(st.st_mode) if self.replace else 0o666 & ~umask()
        self.mode = mode
        self.tmpname = None              # the named temporary file, when not O_TMPFILE
        self.committed = False
        fd = self._open_unnamed() if USE_O_TMPFILE else None
        if fd is None:
            fd = self._open_named()
        self.fd = fd
        self.file = os.fdopen(fd, "w+b")

    def _refuse(self, e):
        return OutputRefused(f"{self.path}: cannot create a file in {self.dir}: "
                             f"{e.strerror}")

    def _open_unnamed(self):
        try:
            return os.open(self.dir, os.O_TMPFILE | os.O_RDWR | _CLOEXEC, 0o600)
        except OSError as e:
            if e.errno in _NO_WRITE:
                raise self._refuse(e) from None
            return None     # no O_TMPFILE on this file system (EOPNOTSUPP, EISDIR)

    def _open_named(self):
        flags = os.O_CREAT | os.O_EXCL | os.O_RDWR | _NOFOLLOW | _CLOEXEC
        while True:
            name = os.path.join(self.dir, f".motebox-{secrets.token_hex(8)}.tmp")
            try:
                fd = os.open(name, flags, 0o600)
            except FileExistsError:
                continue
            except OSError as e:
                if e.errno in _NO_WRITE:
                    raise self._refuse(e) from None
                raise
            self.tmpname = name
            return fd

    def _link_as(self, name):
        """Give the unnamed file the name `name` (FileExistsError if it is taken)."""
        if self.tmpname is None:
            # linkat(AT_SYMLINK_FOLLOW) on the /proc link: os.link calls plain link(2),
            # which does not follow it, unless a dir fd is given.
            dfd = os.open(self.dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
            try:
                os.link(f"/proc/self/fd/{self.fd}", os.path.basename(name),
                        dst_dir_fd=dfd, follow_symlinks=True)
            finally:
                os.close(dfd)
        else:
            os.link(self.tmpname, name)

    def commit(self):
        """Flush to disk and put the file at its path (replacing the old one when
        allowed). Nothing is visible at the path before this."""
        self.file.flush()
        os.fchmod(self.fd, self.mode)
        os.fsync(self.fd)
        if not self.replace:
            try:
                self._link_as(self.target)      # never clobbers: EEXIST if one appeared
            except FileExistsError:
                raise OutputRefused(f"{self.path} appeared while motebox was writing it; "
                                    f"left alone") from None
        else:
            st = _lstat(self.target)
            if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                raise OutputRefused(f"{self.path} became {_kind(st.st_mode)} while motebox "
                                    f"was writing it; left alone")
            if self.tmpname is None:
                while True:
                    name = os.path.join(self.dir, f".motebox-{secrets.token_hex(8)}.tmp")
                    try:
                        self._link_as(name)
                        break
                    except FileExistsError:
                        continue
            else:
                name = self.tmpname
            try:
                os.replace(name, self.target)
            except BaseException:
                _unlink(name)
                raise
            if self.tmpname is not None:
                self.tmpname = None         # renamed: nothing left to remove
        self.committed = True
        _fsync_dir(self.dir)

    def close(self):
        try:
            self.file.close()
        finally:
            if self.tmpname is not None:
                _unlink(self.tmpname)
                self.tmpname = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def create(path, force=False, mode=None, follow_symlink=True):
    """An Output for `path`; OutputRefused when the rules in the module doc say no."""
    return Output(path, force=force, mode=mode, follow_symlink=follow_symlink)


def _unlink(name):
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
