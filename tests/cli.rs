//! The `coalesce` command, run as a user runs it.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

/// The CLI under test: `COALESCE_BIN` where the binary was moved (the GPU machine), else the
/// one cargo built beside this test.
fn coalesce(args: &[&str]) -> Command {
    let bin = std::env::var("COALESCE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_coalesce").to_owned());
    let mut c = Command::new(bin);
    c.args(args);
    c
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// `coalesce <args> --device <id>`: whether it succeeded, and what it printed (stdout, stderr).
fn run_on(id: &str, args: &[&str]) -> (bool, String, String) {
    let mut all = args.to_vec();
    all.extend(["--device", id]);
    let o = coalesce(&all).output().unwrap();
    let (out, err) = text(&o);
    (o.status.success(), out, err)
}

/// `coalesce fft ARGS --device ID`: (success, stdout, stderr).
fn fft_on(id: &str, args: &[&str]) -> (bool, String, String) {
    let all: Vec<&str> = std::iter::once("fft").chain(args.iter().copied()).collect();
    run_on(id, &all)
}

/// A fresh folder in the temp dir for one test's files, removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("coalesce-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of file `name` in the folder, as a command-line argument.
    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn info_lists_every_device_with_its_copy_bandwidth() {
    common::devices(); // fails the test when there is nothing to list
    let devices = coalesce::Device::all();
    let o = coalesce(&["info", "--quick"]).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // A device that opens here may still fail to open in the CLI's process (NVIDIA's OpenCL
    // device once did on the GPU machine, cause not established): the CLI must then name it
    // and say why on stderr, not drop it silently.
    let mut listed = 0;
    for d in &devices {
        let shown = out.contains(&format!("{}: {}", d.id(), d.info().name));
        let skipped = err.contains(&format!("coalesce: skipping {}: ", d.id()));
        assert!(shown || skipped, "{} neither listed nor skipped with a reason:\n{out}\n{err}", d.id());
        listed += usize::from(shown);
    }
    assert!(listed > 0, "no device listed:\n{out}\n{err}");
    assert_eq!(out.matches("device copy bandwidth").count(), listed, "{out}");
    assert!(out.contains("GB/s"), "{out}");
}

#[test]
fn quick_copy_bench_prints_a_table_and_writes_csv() {
    let d = &common::devices()[0];
    let dir = Scratch::new("cli");
    let csv = dir.path("copy.csv");
    let (ok, out, err) = run_on(&d.id(), &["bench", "copy", "--quick", "--csv", &csv]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("copy f32") && out.contains("of memcpy") && out.contains("driver memcpy"), "{out}");
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert!(lines[0].starts_with("case,size,time ms,GB/s"), "{written}");
    assert_eq!(lines.len(), 1 + 8, "header and eight rows:\n{written}");
}

#[test]
fn unknown_device_and_suite_are_clear_errors() {
    let o = coalesce(&["--device", "bogus", "info"]).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("unknown device 'bogus'") && err.contains("cuda:N"), "{err}");

    let o = coalesce(&["bench", "nosuch", "--quick"]).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("unknown benchmark suite 'nosuch'") && err.contains("copy, reduce, transfer"), "{err}");

    // --variants belongs to the variants suite, and names variants that exist.
    let o = coalesce(&["bench", "fft", "--variants", "ping-pong", "--quick"]).output().unwrap();
    let (_, err) = text(&o);
    assert!(!o.status.success() && err.contains("add --suite variants"), "{err}");
    let d = &common::devices()[0];
    let (ok, _, err) = run_on(&d.id(), &["bench", "fft", "--suite", "variants", "--sizes", "937", "--variants", "pingpang", "--quick"]);
    assert!(!ok && err.contains("no variant named 'pingpang'") && err.contains("threads x2"), "{err}");
    // --sizes that leave a suite nothing say so, rather than print an empty table.
    let (ok, _, err) = run_on(&d.id(), &["bench", "fft", "--suite", "2d", "--sizes", "3", "--quick"]);
    assert!(!ok && err.contains("no case of the 2d suite") && err.contains("--sizes 3 names no case"), "{err}");
}

/// `bench fft --compile-only` compiles what the suites would time into the disk cache, lists
/// the kernels and times nothing: a second run finds every kernel there.
#[test]
fn compile_only_fills_the_kernel_cache() {
    let d = &common::devices()[0];
    let dir = Scratch::new("compile-only");
    let csv = dir.path("kernels.csv");
    let cache = dir.path("cache");
    let args = ["bench", "fft", "--suite", "variants", "--suite", "real", "--sizes", "36", "--variants", "rows /2", "--compile-only", "--csv", &csv, "--device", &d.id()];
    for (run, cached) in [(1, "false"), (2, "true")] {
        let o = coalesce(&args).env("COALESCE_CACHE", &cache).output().unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "run {run}: {out}\n{err}");
        assert!(!out.contains("of copy") && !out.contains("cuFFT"), "run {run} timed something:\n{out}");
        // The variants table (rows /2; the lane-group design planning runs at 36, a row the
        // lane-group table lists, timed beside any filter; the pick), then R2C's and C2R's
        // planned kernels.
        let variants = std::fs::read_to_string(dir.path("kernels.csv")).unwrap();
        let lines: Vec<&str> = variants.lines().collect();
        assert_eq!(lines[0], "n,variant,kernel,from disk cache", "{variants}");
        assert_eq!(lines.len(), 4, "{variants}");
        let named = |line: &str, what: &str| line.starts_with(&format!("36,{what},fft_c2c_f32_n36_"));
        assert!(named(lines[1], "rows /2") && named(lines[2], "lane groups") && named(lines[3], "heuristic"), "{variants}");
        for table in ["kernels.csv", "kernels-2.csv", "kernels-3.csv"] {
            let text = std::fs::read_to_string(dir.path(table)).unwrap();
            assert!(text.lines().skip(1).all(|l| l.ends_with(&format!(",{cached}"))), "run {run}, {table}:\n{text}");
        }
    }
    // Suites that time more than one-launch kernels (or plan creation) have no such mode.
    let (ok, _, err) = run_on(&d.id(), &["bench", "fft", "--suite", "plan", "--compile-only"]);
    assert!(!ok && err.contains("--compile-only compiles the kernels of the FFT suites sweep"), "{err}");
}

/// `--suite r2c` and `--suite c2r` are the two halves of `real`, each alone (so that a run of
/// C2R rows does not follow minutes of R2C ones): one table each, of that kind only.
#[test]
fn r2c_and_c2r_suites_time_one_kind_each() {
    let d = &common::devices()[0];
    let dir = Scratch::new("one-real-kind");
    for (suite, kernel) in [("r2c", "fft_r2c_f32_n36_half_"), ("c2r", "fft_c2r_f32_n36_half_")] {
        let csv = dir.path(&format!("{suite}.csv"));
        let args = ["bench", "fft", "--suite", suite, "--sizes", "36", "--compile-only", "--csv", &csv, "--device", &d.id()];
        let o = coalesce(&args).env("COALESCE_CACHE", dir.path("cache")).output().unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{suite}: {out}\n{err}");
        let table = std::fs::read_to_string(&csv).unwrap();
        let rows: Vec<&str> = table.lines().skip(1).collect();
        assert_eq!(rows.len(), 1, "{suite}:\n{table}");
        assert!(rows[0].starts_with(&format!("36,planned,{kernel}")), "{suite}:\n{table}");
        assert!(!std::path::Path::new(&dir.path(&format!("{suite}-2.csv"))).exists(), "{suite} wrote a second table:\n{out}");
    }
}

/// The one-launch suites take named rows past 4096 points, planned as multi-pass plans run them
/// in one launch, and say which named lengths no launch holds.
#[test]
fn one_launch_suites_take_rows_past_4096() {
    let d = &common::devices()[0];
    let dir = Scratch::new("long-rows");
    let csv = dir.path("kernels.csv");
    let args = ["bench", "fft", "--suite", "sweep", "--suite", "real", "--sizes", "8192,20001", "--compile-only", "--csv", &csv, "--device", &d.id()];
    let o = coalesce(&args).env("COALESCE_CACHE", dir.path("cache")).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // C2C rows end at 16384, odd real rows too; even real rows go on to 32768.
    assert!(err.contains("the sweep suite times rows of one launch, up to 16384 points"), "{err}");
    assert!(err.contains("r2c f32: left out 20001") && err.contains("c2r f32: left out 20001"), "{err}");
    for (table, kernel) in [("kernels.csv", "fft_c2c_f32_n8192_"), ("kernels-2.csv", "fft_r2c_f32_n8192_half_"), ("kernels-3.csv", "fft_c2r_f32_n8192_half_")] {
        let text = std::fs::read_to_string(dir.path(table)).unwrap();
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(rows.len(), 1, "{table}:\n{text}");
        assert!(rows[0].starts_with(&format!("8192,planned,{kernel}")), "{table}:\n{text}");
    }
}

#[test]
fn no_device_at_all_says_what_to_install() {
    // Hide CUDA devices and point the OpenCL loader at an empty vendor folder, with no extra
    // drivers named beside it (some images list PoCL and NVIDIA's in OCL_ICD_FILENAMES).
    let empty = Scratch::new("no-icd");
    let o = coalesce(&["bench", "copy", "--quick"])
        .env("CUDA_VISIBLE_DEVICES", "")
        .env("OCL_ICD_VENDORS", &empty.0)
        .env_remove("OCL_ICD_FILENAMES")
        .env_remove("COALESCE_DEVICE")
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("no compute device found") && err.contains("pocl-opencl-icd"), "{err}");
}

/// `COALESCE_REPLACE_KERNELS=DIR`: a file there named as a kernel (as `COALESCE_DUMP_KERNELS`
/// writes them) is compiled instead of that kernel's generated source, and stderr says so.
#[test]
fn kernels_replaced_from_a_folder_run_instead_of_the_generated_ones() {
    use coalesce::npy::NpyArray;
    use coalesce::Complex;
    let id = common::devices()[0].id();
    let dir = Scratch::new("replace-kernels");
    let x: Vec<Complex<f32>> = coalesce::bench::random::random_vec(3 * 20, 5);
    NpyArray::new(vec![3, 20], &x).unwrap().write(dir.path("x.npy")).unwrap();
    let fft = |out: &str, var: &str, folder: &str| {
        let mut c = coalesce(&["--device", &id, "fft", &dir.path("x.npy"), &dir.path(out)]);
        c.env("COALESCE_CACHE", "off").env_remove("COALESCE_REPLACE_KERNELS").env_remove("COALESCE_DUMP_KERNELS");
        c.env(var, dir.path(folder)).output().unwrap()
    };
    let o = fft("y.npy", "COALESCE_DUMP_KERNELS", "dump");
    assert!(o.status.success(), "{:?}", text(&o));
    let dumped: Vec<PathBuf> = std::fs::read_dir(dir.path("dump")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(!dumped.is_empty());
    let names: Vec<String> = dumped.iter().map(|f| f.file_stem().unwrap().to_str().unwrap().to_owned()).collect();
    // The dumped sources with a comment added: each one used, said on stderr, the same output.
    for (folder, edit) in [("edited", true), ("broken", false)] {
        std::fs::create_dir_all(dir.path(folder)).unwrap();
        for f in &dumped {
            let text = if edit { std::fs::read_to_string(f).unwrap() + "\n/* edited by hand */\n" } else { "not a kernel".to_owned() };
            std::fs::write(dir.path(folder) + "/" + f.file_name().unwrap().to_str().unwrap(), text).unwrap();
        }
    }
    let o = fft("z.npy", "COALESCE_REPLACE_KERNELS", "edited");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(names.iter().all(|n| err.contains(&format!("kernel {n} from "))), "{err}");
    assert_eq!(std::fs::read(dir.path("y.npy")).unwrap(), std::fs::read(dir.path("z.npy")).unwrap());
    // A file that is no kernel: the compile error names the kernel.
    let o = fft("w.npy", "COALESCE_REPLACE_KERNELS", "broken");
    let (out, err) = text(&o);
    assert!(!o.status.success() && names.iter().any(|n| err.contains(n.as_str())), "{out}\n{err}");
}

/// `coalesce fft` on .npy files: numpy's fft, rfft and irfft semantics (n, norm, batching over
/// the leading axes), checked against rustfft in f64.
#[test]
fn fft_command_transforms_the_last_axis_like_numpy() {
    use coalesce::fft::reference;
    use coalesce::npy::NpyArray;
    use coalesce::Complex;
    let id = common::devices()[0].id();
    let dir = Scratch::new("cli-fft");
    let path = |name: &str| dir.path(name);
    let run = |args: &[&str]| {
        let (ok, out, err) = fft_on(&id, args);
        assert!(ok, "coalesce fft {args:?}: {out}\n{err}");
    };
    let err_of = |x: Vec<Complex<f64>>, y: Vec<Complex<f64>>| reference::relative_l2_error(x, y);

    // complex64 [2, 3, 20]: forward, unscaled (numpy's default norm)
    let x: Vec<Complex<f32>> = coalesce::bench::random::random_vec(120, 1);
    NpyArray::new(vec![2, 3, 20], &x).unwrap().write(path("x.npy")).unwrap();
    run(&[&path("x.npy"), &path("y.npy")]);
    let y = NpyArray::read(path("y.npy")).unwrap();
    assert_eq!((y.shape.clone(), y.dtype), (vec![2, 3, 20], coalesce::ScalarKind::C32));
    let wide: Vec<Complex<f64>> = x.iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
    let got: Vec<Complex<f64>> = y.to_vec::<Complex<f32>>().unwrap().iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
    assert!(err_of(got, reference::c2c(&wide, 20, false)) < 1e-6);

    // --n 25 zero-pads each row, --inverse --norm ortho scales by 1/sqrt(25)
    run(&[&path("x.npy"), &path("z.npy"), "--n", "25", "--inverse", "--norm", "ortho"]);
    let z = NpyArray::read(path("z.npy")).unwrap();
    assert_eq!(z.shape, vec![2, 3, 25]);
    let padded: Vec<Complex<f64>> = wide.chunks(20).flat_map(|r| r.iter().copied().chain(std::iter::repeat_n(Complex::new(0.0, 0.0), 5))).collect();
    let want: Vec<Complex<f64>> = reference::c2c(&padded, 25, true).into_iter().map(|v| v / 5.0).collect();
    let got: Vec<Complex<f64>> = z.to_vec::<Complex<f32>>().unwrap().iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
    assert!(err_of(got, want) < 1e-6);

    // float64 rfft, then irfft with an odd n: the precision is kept
    let r: Vec<f64> = coalesce::bench::random::random_vec(4 * 21, 2);
    NpyArray::new(vec![4, 21], &r).unwrap().write(path("r.npy")).unwrap();
    run(&[&path("r.npy"), &path("h.npy"), "--real"]);
    let h = NpyArray::read(path("h.npy")).unwrap();
    assert_eq!((h.shape.clone(), h.dtype), (vec![4, 11], coalesce::ScalarKind::C64));
    assert!(err_of(h.to_vec::<Complex<f64>>().unwrap(), reference::r2c(&r, 21)) < 1e-14);
    run(&[&path("h.npy"), &path("back.npy"), "--real", "--inverse", "--n", "21"]);
    let back = NpyArray::read(path("back.npy")).unwrap();
    assert_eq!((back.shape.clone(), back.dtype), (vec![4, 21], coalesce::ScalarKind::F64));
    let back: Vec<f64> = back.to_vec().unwrap();
    assert!(back.iter().zip(&r).all(|(a, b)| (a - b).abs() < 1e-13));

    // wrong dtype: a clear message naming what --real takes
    let o = coalesce(&["--device", &id, "fft", &path("x.npy"), &path("bad.npy"), "--real"]).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("--real (rfft) takes f32 or f64"), "{err}");
}

/// `coalesce fft --axes`: numpy's fftn, rfftn and irfftn over the axes named (the last one
/// named takes n and is the one real transforms halve), checked against rustfft in f64.
#[test]
fn fft_command_transforms_the_axes_named() {
    use coalesce::fft::reference;
    use coalesce::npy::NpyArray;
    use coalesce::Complex;
    let id = common::devices()[0].id();
    let dir = Scratch::new("cli-fftn");
    let path = |name: &str| dir.path(name);
    let run = |args: &[&str]| fft_on(&id, args);
    let wide = |v: Vec<Complex<f32>>| v.iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect::<Vec<_>>();

    // complex64 [4, 3, 6], fftn over axes 0 and 2
    let x: Vec<Complex<f32>> = coalesce::bench::random::random_vec(72, 5);
    NpyArray::new(vec![4, 3, 6], &x).unwrap().write(path("x.npy")).unwrap();
    let (ok, out, err) = run(&[&path("x.npy"), &path("y.npy"), "--axes", "0,2"]);
    assert!(ok, "{out}\n{err}");
    let y = NpyArray::read(path("y.npy")).unwrap();
    assert_eq!(y.shape, vec![4, 3, 6]);
    let want = reference::c2c_axes(&wide(x.clone()), &[4, 3, 6], &[0, 2], false);
    assert!(reference::relative_l2_error(wide(y.to_vec().unwrap()), want) < 1e-6);

    // float32 [6, 5, 4], rfftn over axes (2, 0): axis 0 is halved to 4
    let r: Vec<f32> = coalesce::bench::random::random_vec(120, 6);
    let r64: Vec<f64> = r.iter().map(|&v| v as f64).collect();
    NpyArray::new(vec![6, 5, 4], &r).unwrap().write(path("r.npy")).unwrap();
    let (ok, out, err) = run(&[&path("r.npy"), &path("h.npy"), "--real", "--axes", "2,0"]);
    assert!(ok, "{out}\n{err}");
    let h = NpyArray::read(path("h.npy")).unwrap();
    assert_eq!((h.shape.clone(), h.dtype), (vec![4, 5, 4], coalesce::ScalarKind::C32));
    let spectrum = wide(h.to_vec().unwrap());
    assert!(reference::relative_l2_error(spectrum, reference::r2c_axes(&r64, &[6, 5, 4], &[2, 0])) < 1e-6);
    // irfftn back with n = 6 along the halved axis
    let (ok, out, err) = run(&[&path("h.npy"), &path("back.npy"), "--real", "--inverse", "--axes", "2,0", "--n", "6"]);
    assert!(ok, "{out}\n{err}");
    let back = NpyArray::read(path("back.npy")).unwrap();
    assert_eq!(back.shape, vec![6, 5, 4]);
    let back: Vec<f32> = back.to_vec().unwrap();
    assert!(back.iter().zip(&r).all(|(a, b)| (a - b).abs() < 1e-5));

    // a prime length over one launch (Bluestein over passes), along the default last axis
    let p: Vec<Complex<f32>> = coalesce::bench::random::random_vec(2 * 4099, 7);
    NpyArray::new(vec![2, 4099], &p).unwrap().write(path("p.npy")).unwrap();
    let (ok, out, err) = run(&[&path("p.npy"), &path("q.npy"), "--inverse"]);
    assert!(ok, "{out}\n{err}");
    let q = NpyArray::read(path("q.npy")).unwrap();
    let want: Vec<_> = reference::c2c_axes(&wide(p), &[2, 4099], &[1], true).into_iter().map(|v| v / 4099.0).collect();
    assert!(reference::relative_l2_error(wide(q.to_vec().unwrap()), want) < 1e-6);

    // negative axes count from the last, as numpy's: -3,-1 are axes 0 and 2
    let (ok, out, err) = run(&[&path("x.npy"), &path("neg.npy"), "--axes", "-3,-1"]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(NpyArray::read(path("neg.npy")).unwrap().to_vec::<Complex<f32>>().unwrap(), y.to_vec::<Complex<f32>>().unwrap());

    // an axis out of range (either way), and one named twice: errors that say so
    let (ok, _, err) = run(&[&path("x.npy"), &path("bad.npy"), "--axes", "0,3"]);
    assert!(!ok && err.contains("axis 3 is out of range"), "{err}");
    let (ok, _, err) = run(&[&path("x.npy"), &path("bad.npy"), "--axes", "-4"]);
    assert!(!ok && err.contains("axis -4 is out of range") && err.contains("from -3 to 2"), "{err}");
    let (ok, _, err) = run(&[&path("x.npy"), &path("bad.npy"), "--axes", "1,1"]);
    assert!(!ok && err.contains("named twice"), "{err}");
    // an n past any device's memory, and one whose element count overflows: errors, not aborts
    let (ok, _, err) = run(&[&path("x.npy"), &path("bad.npy"), "--n", "100000000000"]);
    assert!(!ok && err.contains("out of device memory"), "{err}");
    let (ok, _, err) = run(&[&path("x.npy"), &path("bad.npy"), "--n", "10000000000000000000"]);
    assert!(!ok && err.contains("size overflow: 120000000000000000000 elements"), "{err}");
}

#[test]
fn permute_and_shift_commands_follow_numpy() {
    use coalesce::npy::NpyArray;
    let id = common::devices()[0].id();
    let dir = Scratch::new("cli-rearrange");
    let path = |name: &str| dir.path(name);
    let x: Vec<i16> = (0..24).collect();
    NpyArray::new(vec![2, 3, 4], &x).unwrap().write(path("x.npy")).unwrap();
    let run = |args: &[&str]| {
        let (ok, out, err) = run_on(&id, args);
        (ok, format!("{out}{err}"))
    };

    // numpy.transpose(x, (2, 0, 1))[k, i, j] = x[i, j, k]
    let (ok, log) = run(&["permute", &path("x.npy"), &path("p.npy"), "--axes", "2,0,1"]);
    assert!(ok, "{log}");
    let p = NpyArray::read(path("p.npy")).unwrap();
    assert_eq!((p.dtype, p.shape.clone()), (coalesce::ScalarKind::I16, vec![4, 2, 3]));
    let got: Vec<i16> = p.to_vec().unwrap();
    for (k, i, j) in (0..4).flat_map(|k| (0..2).flat_map(move |i| (0..3).map(move |j| (k, i, j)))) {
        assert_eq!(got[k * 6 + i * 3 + j], x[i * 12 + j * 4 + k]);
    }
    // Without --axes: reversed, as numpy.transpose(x).
    let (ok, log) = run(&["permute", &path("x.npy"), &path("t.npy")]);
    assert!(ok, "{log}");
    assert_eq!(NpyArray::read(path("t.npy")).unwrap().shape, vec![4, 3, 2]);

    // numpy.roll(x, (1, -1, 5), axis=(0, 1, 2)): out[i, j, k] = x[i - 1, j + 1, k - 5] (mod shape)
    let (ok, log) = run(&["shift", &path("x.npy"), &path("r.npy"), "--by", "1,-1,5"]);
    assert!(ok, "{log}");
    let r: Vec<i16> = NpyArray::read(path("r.npy")).unwrap().to_vec().unwrap();
    for i in 0..2 {
        for j in 0..3 {
            for k in 0..4 {
                assert_eq!(r[i * 12 + j * 4 + k], x[((i + 1) % 2) * 12 + ((j + 1) % 3) * 4 + (k + 3) % 4]);
            }
        }
    }
    // fftshift over axis 1 (length 3: shift by 1), then ifftshift back.
    let (ok, log) = run(&["shift", &path("x.npy"), &path("f.npy"), "--fftshift", "--axes", "1"]);
    assert!(ok, "{log}");
    let f: Vec<i16> = NpyArray::read(path("f.npy")).unwrap().to_vec().unwrap();
    assert_eq!(&f[..4], &x[8..12]);
    let (ok, log) = run(&["shift", &path("f.npy"), &path("b.npy"), "--ifftshift", "--axes", "-2"]);
    assert!(ok, "{log}");
    assert_eq!(NpyArray::read(path("b.npy")).unwrap().to_vec::<i16>().unwrap(), x);
    // Negative axes count from the last, as numpy's: (-1, 0, -2) is (2, 0, 1).
    let (ok, log) = run(&["permute", &path("x.npy"), &path("n.npy"), "--axes", "-1,0,-2"]);
    assert!(ok, "{log}");
    assert_eq!(NpyArray::read(path("n.npy")).unwrap().to_vec::<i16>().unwrap(), got);

    // Bad input: clear errors, non-zero exit.
    let (ok, log) = run(&["permute", &path("x.npy"), &path("e.npy"), "--axes", "0,0,1"]);
    assert!(!ok && log.contains("not a permutation"), "{log}");
    let (ok, log) = run(&["shift", &path("x.npy"), &path("e.npy"), "--by", "1,2"]);
    assert!(!ok && log.contains("one per axis"), "{log}");
    let (ok, log) = run(&["shift", &path("x.npy"), &path("e.npy")]);
    assert!(!ok && log.contains("--fftshift"), "{log}");
}
