//! Writing a file whole, as checkpoints and plots do: into a temporary file beside it, then a
//! rename over it.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Replaces the file at `path` with what `write` puts in the file whose path it is given (an
/// empty file it may overwrite or replace), so that a write that fails (a full disk, a file size
/// limit) leaves an existing file as it was, where `std::fs::write` would have truncated it.
///
/// A symbolic link at `path` stays: the file it points to is replaced (a dangling link's target
/// is created), as `std::fs::write` does. The new file keeps the permissions of the file it
/// replaces, or gets those of any new file (`0o666` less the umask on Unix), as
/// `std::fs::write` does; not the owner-only ones of a temporary file. The new file is synced to
/// the disk before the rename, and the directory after it (Unix), so that a crash leaves the old
/// file or the new one, not an empty one. The owner and group are the writer's, as a new file's.
pub(crate) fn replace<E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let target = follow_links(path)?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(target.file_name().unwrap_or_else(|| "file".as_ref()));
    tmp_name.push(std::format!(
        ".{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = target.with_file_name(tmp_name);
    let placeholder = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    let written = (|| {
        let permissions = match std::fs::metadata(&target) {
            Ok(old) => old.permissions(),
            Err(_) => placeholder.metadata()?.permissions(),
        };
        drop(placeholder);
        write(&tmp)?;
        // On the disk before the rename makes it the file: else a crash soon after can leave
        // an empty file under the name where the old one was. Synced while it is still
        // writable: the permissions may make it read-only.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&tmp)?
            .sync_all()?;
        std::fs::set_permissions(&tmp, permissions)?;
        std::fs::rename(&tmp, &target)?;
        sync_dir(&target);
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Puts a rename into `path`'s directory on the disk, where the system can (Unix). Best effort:
/// the file is in place whether or not this succeeds, so a failure is not reported as one of
/// the write.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// `path` with symbolic links followed to the path that is not one (which may not exist).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // As Linux's limit on the links followed to open a file.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(std::format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}
