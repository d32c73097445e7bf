//! Which devices exist, and which one a `--device` / `COALESCE_DEVICE` spec names.
//!
//! Specs: `cuda` (= `cuda:0`), `cuda:N`, `opencl` (= `opencl:0`), `opencl:N`, and `auto`
//! (the first CUDA device, else the first OpenCL device). OpenCL devices are numbered across
//! platforms in the order the ICD loader lists them.

use std::fmt;

use super::{cuda, opencl, Backend};
use crate::error::{Error, Result};

/// A resolved device name: backend and index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceSpec {
    pub backend: Backend,
    pub index: usize,
}

impl fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.backend, self.index)
    }
}

/// The devices found, and for each backend with none, why.
pub(crate) struct Found {
    pub specs: Vec<DeviceSpec>,
    cuda_note: Option<String>,
    opencl_note: Option<String>,
}

/// The devices present, looked up once per process (the answer does not change).
pub(crate) fn enumerate() -> &'static Found {
    static FOUND: std::sync::OnceLock<Found> = std::sync::OnceLock::new();
    FOUND.get_or_init(enumerate_now)
}

fn enumerate_now() -> Found {
    let mut specs = Vec::new();
    let cuda_note = match cuda::device_count() {
        Ok(0) => Some("the CUDA driver reports no devices".to_owned()),
        Ok(n) => {
            specs.extend((0..n).map(|index| DeviceSpec { backend: Backend::Cuda, index }));
            None
        }
        Err(why) => Some(why),
    };
    let opencl_note = match opencl::device_ids() {
        Ok([]) => Some("the OpenCL runtime lists no devices".to_owned()),
        Ok(ids) => {
            specs.extend((0..ids.len()).map(|index| DeviceSpec { backend: Backend::OpenCl, index }));
            None
        }
        Err(why) => Some(why),
    };
    Found { specs, cuda_note, opencl_note }
}

impl Found {
    pub fn first(&self) -> Option<DeviceSpec> {
        self.specs.first().copied()
    }

    pub fn why_none(&self) -> String {
        let notes: Vec<&str> = [self.cuda_note.as_deref(), self.opencl_note.as_deref()].into_iter().flatten().collect();
        notes.join("; ")
    }

    fn available(&self) -> String {
        if self.specs.is_empty() {
            format!("none ({})", self.why_none())
        } else {
            self.specs.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
        }
    }

    /// The device a spec names, or an error listing the ones present.
    pub fn resolve(&self, text: &str) -> Result<DeviceSpec> {
        let t = text.trim().to_ascii_lowercase();
        let unknown = |reason: String| Error::UnknownDevice { spec: text.to_owned(), reason, available: self.available() };
        if t == "auto" {
            return self.first().ok_or_else(|| Error::NoDevice { details: self.why_none() });
        }
        let (name, index) = match t.split_once(':') {
            Some((n, i)) => {
                let index = i.parse::<usize>().map_err(|_| unknown(format!("'{i}' is not a device number")))?;
                (n, index)
            }
            None => (t.as_str(), 0),
        };
        let backend = match name {
            "cuda" => Backend::Cuda,
            "opencl" | "ocl" | "cl" => Backend::OpenCl,
            _ => return Err(unknown("use cuda, cuda:N, opencl, opencl:N or auto".into())),
        };
        let spec = DeviceSpec { backend, index };
        if self.specs.contains(&spec) {
            Ok(spec)
        } else {
            let count = self.specs.iter().filter(|s| s.backend == backend).count();
            let note = match backend {
                Backend::Cuda => self.cuda_note.clone(),
                Backend::OpenCl => self.opencl_note.clone(),
            };
            let reason = match (count, note) {
                (0, Some(why)) => format!("no {backend} device: {why}"),
                (n, _) => format!("{n} {backend} device(s) present, numbered from 0"),
            };
            Err(unknown(reason))
        }
    }
}
