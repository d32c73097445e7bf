//! Where compiled kernels are kept between runs, and where generated sources are dumped or
//! replaced by hand-edited ones.
//!
//! Disk cache: `COALESCE_CACHE=DIR` moves it, `COALESCE_CACHE=off` (or `0`, `none`, empty)
//! turns it off; by default it lives under the user's cache directory
//! (`$XDG_CACHE_HOME/coalesce`, else `~/.cache/coalesce`). Entries are keyed by a hash of the
//! device, driver and compiler versions, the compile options and the full source text, so a
//! driver or compiler upgrade never loads stale binaries.
//!
//! `COALESCE_DUMP_KERNELS=DIR` writes every generated source there before compiling;
//! `COALESCE_REPLACE_KERNELS=DIR` compiles `DIR/<name>.cu` (CUDA) or `DIR/<name>.cl` (OpenCL)
//! instead of kernel `<name>`'s generated source where that file exists: a kernel edited by
//! hand runs in the real plans, tests and benchmarks (the files the dump or
//! `fft_recipes --source` write are the starting point; both dialects are in each).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Hex SHA-256 of the given parts (each separated, so that ("ab","c") != ("a","bc")).
pub fn hash_parts(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The on-disk store of compiled programs, or none when turned off.
#[derive(Debug, Clone)]
pub struct DiskCache {
    dir: Option<PathBuf>,
}

impl DiskCache {
    /// The cache as the environment configures it.
    pub fn from_env() -> Self {
        let dir = match std::env::var_os("COALESCE_CACHE") {
            Some(v) => {
                let s = v.to_string_lossy();
                if matches!(s.trim().to_ascii_lowercase().as_str(), "" | "0" | "off" | "none" | "false") {
                    None
                } else {
                    Some(PathBuf::from(v))
                }
            }
            None => default_cache_dir(),
        };
        DiskCache { dir }
    }

    /// The directory in use, if the cache is on.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn entry_path(&self, device_key: &str, name: &str, source_hash: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let device_dir = &hash_parts(&[device_key])[..16];
        Some(dir.join(device_dir).join(format!("{name}-{}.bin", &source_hash[..24])))
    }

    /// A stored binary for this device and source, if there is one.
    pub fn load(&self, device_key: &str, name: &str, source_hash: &str) -> Option<Vec<u8>> {
        let path = self.entry_path(device_key, name, source_hash)?;
        std::fs::read(path).ok().filter(|b| !b.is_empty())
    }

    /// Stores a binary. Failures are ignored: the cache only saves time, it is never needed.
    pub fn store(&self, device_key: &str, name: &str, source_hash: &str, binary: &[u8]) {
        let Some(path) = self.entry_path(device_key, name, source_hash) else { return };
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        // A readable note of what the hashed directory is for.
        let key_note = parent.join("device.txt");
        if !key_note.exists() {
            let _ = std::fs::write(&key_note, device_key);
        }
        // Write then rename, so a concurrent reader never sees half a file.
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, binary).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = env_path("XDG_CACHE_HOME") {
        return Some(x.join("coalesce"));
    }
    env_path("HOME").map(|h| h.join(".cache").join("coalesce"))
}

/// The path an environment variable names, if it is set and not empty.
fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The text of `$COALESCE_REPLACE_KERNELS/<name>.<ext>` (else the file of the other
/// extension, `cu` or `cl`: each holds both dialects) when that variable is set and the file
/// exists, with its path.
pub fn replaced_source(name: &str, ext: &str) -> Option<(PathBuf, String)> {
    let dir = env_path("COALESCE_REPLACE_KERNELS")?;
    let other = if ext == "cu" { "cl" } else { "cu" };
    [ext, other].iter().find_map(|e| {
        let path = dir.join(format!("{name}.{e}"));
        std::fs::read_to_string(&path).ok().map(|text| (path, text))
    })
}

/// Writes `text` to `$COALESCE_DUMP_KERNELS/<name>.<ext>` when that variable is set.
pub fn dump_source(name: &str, ext: &str, text: &str) {
    if let Some(dir) = env_path("COALESCE_DUMP_KERNELS")
        && std::fs::create_dir_all(&dir).is_ok()
    {
        let _ = std::fs::write(dir.join(format!("{name}.{ext}")), text);
    }
}
