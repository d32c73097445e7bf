//! The disk cache and kernel dumps, in a test binary of their own because they set
//! process-wide environment variables.

mod common;

use coalesce::kernel::KernelSource;
use coalesce::Device;

#[test]
fn compiled_kernels_come_back_from_the_disk_cache_and_sources_are_dumped() {
    let dir = std::env::temp_dir().join(format!("coalesce-cache-test-{}", std::process::id()));
    let dump = dir.join("dump");
    // SAFETY: this binary runs this one test; nothing else reads the environment concurrently.
    unsafe {
        std::env::set_var("COALESCE_CACHE", dir.join("cache"));
        std::env::set_var("COALESCE_DUMP_KERNELS", &dump);
    }
    let unique = format!("{}", std::process::id());
    let src = KernelSource {
        name: "cache_probe".into(),
        entry_points: vec!["cache_probe".into()],
        body: format!("/* {unique} */\nKERNEL void cache_probe(GLOBAL u32* x) {{ x[LOCAL_ID()] = {unique}u; }}\n"),
    };
    for d in common::devices() {
        let first = d.build(&src).unwrap();
        assert!(!first.from_disk_cache, "{d}: a new source cannot be cached yet");
        // A new handle on the same device has an empty memory cache: the binary comes from disk.
        let again = Device::select(Some(&d.id())).unwrap();
        let second = again.build(&src).unwrap();
        assert!(second.from_disk_cache, "{d}: the second build should load from {:?}", again.disk_cache_dir());
        let mut buf = again.alloc::<u32>(4).unwrap();
        again.launch(second.kernel("cache_probe").unwrap(), coalesce::device::Grid::linear(1, 4), &[(&mut buf).into()]).unwrap();
        assert_eq!(buf.to_vec().unwrap(), vec![unique.parse::<u32>().unwrap(); 4], "{d}");
        let ext = if d.backend() == coalesce::Backend::Cuda { "cu" } else { "cl" };
        let text = std::fs::read_to_string(dump.join(format!("cache_probe.{ext}"))).unwrap();
        assert!(text.contains("coalesce prelude") && text.contains("cache_probe"), "{d}: dumped source");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
