#!/usr/bin/env python3
"""Registers and SASS of generated kernels, on a machine without a GPU.

NVIDIA's pip wheels carry NVRTC, ptxas and nvdisasm; with them the kernels the fft_recipes
example dumps compile here as they would on an H100/H200 (sm_90), close enough to compare two
forms of a kernel before spending device time:

    pip install nvidia-cuda-nvrtc-cu12 nvidia-cuda-nvcc-cu12 nvidia-cuda-nvdisasm
    (or the GPU machine's NVRTC version, 13.0 in the sixtieth session:
     pip install nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-nvcc==13.0.88 nvidia-cuda-nvdisasm)
    cargo run --release --example fft_recipes -- --source /tmp/k c2r:3380 1616
    python3 scripts/sass.py /tmp/k/*.cu            # registers, spills, SASS instructions
    python3 scripts/sass.py --order /tmp/k/*.cu    # and the load phase's global loads (L),
                                                   # shared stores (S) and branch joins (|)
    python3 scripts/sass.py --mix /tmp/k/*.cu      # and the instructions by class (float
                                                   # math, integer and address arithmetic,
                                                   # shared, global, moves, control), to see
                                                   # where an issue-bound kernel's go
    python3 scripts/sass.py --phases /tmp/k/*.cu   # that mix for each stretch between two
                                                   # block barriers (phase 0: the load phase
                                                   # or first pass), to see which phase holds
                                                   # them (C2R 572's load phase: 444 of 1467)
    python3 scripts/sass.py --dump 3 /tmp/k/*.cu   # phase 3's SASS itself, one instruction a
                                                   # line, to read what a count hides

Static counts only: the kernels are unrolled, so they track the instructions a thread issues,
but timings still come from the GPU (the device NVRTC may differ in minor version).
"""
import ctypes
import glob
import os
import re
import subprocess
import sys
import tempfile


def nvidia_dir():
    import importlib.util
    spec = importlib.util.find_spec("nvidia")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("no NVIDIA wheels found: pip install nvidia-cuda-nvrtc-cu12 nvidia-cuda-nvcc-cu12 nvidia-cuda-nvdisasm")
    return list(spec.submodule_search_locations)[0]


def newest_first(paths):
    """CUDA 13 wheels keep their files under nvidia/cu13/, CUDA 12 ones under nvidia/cuda_*/:
    the newest toolkit first, so that NVRTC's PTX goes to a ptxas that reads it."""
    major = lambda p: int(m.group(1)) if (m := re.search(r"/cu(\d+)/", p)) else 12
    return sorted(paths, key=major, reverse=True)


def tool(name):
    found = newest_first(glob.glob(os.path.join(nvidia_dir(), "**", "bin", name), recursive=True))
    if not found:
        sys.exit(f"{name} not found under {nvidia_dir()}: see this script's docstring for the wheels")
    return found[0]


def ptx_of(source, name):
    libs = glob.glob(os.path.join(nvidia_dir(), "**", "libnvrtc.so*"), recursive=True)
    libs = newest_first([l for l in libs if "builtins" not in l and ".alt." not in l])
    if not libs:
        sys.exit("libnvrtc not found: pip install nvidia-cuda-nvrtc-cu12")
    # NVRTC opens its builtins library by name: load the one beside it first.
    for builtins in glob.glob(os.path.join(os.path.dirname(libs[0]), "libnvrtc-builtins.so.*")):
        if ".alt." not in builtins:
            ctypes.CDLL(builtins, mode=ctypes.RTLD_GLOBAL)
    nvrtc = ctypes.CDLL(libs[0])
    prog = ctypes.c_void_p()
    nvrtc.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
    opts = [b"--gpu-architecture=compute_90", b"-default-device"]
    status = nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    if status != 0:
        nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(prog, log)
        sys.exit(f"{name}: NVRTC failed:\n{log.value.decode()}")
    nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(prog, ptx)
    return ptx.value.decode()


# The first word of a SASS instruction (after any predicate) by what it spends an issue slot on.
CLASSES = [
    ("float", ("FFMA", "FMUL", "FADD", "DFMA", "DMUL", "DADD", "FMNMX", "FSETP", "FSEL", "MUFU", "FCHK")),
    ("shared", ("LDS", "STS", "LDSM")),
    ("global", ("LDG", "STG", "LD", "ST", "LDL", "STL", "ATOM", "RED")),
    ("constant", ("LDC", "ULDC")),
    ("integer", ("IMAD", "IADD", "IADD3", "LOP3", "SHF", "LEA", "ISETP", "IABS", "IMNMX", "IMUL", "POPC", "FLO", "BMSK", "SGXT", "VIADD", "VIMNMX")),
    ("move", ("MOV", "SEL", "PRMT", "S2R", "S2UR", "CS2R", "UMOV", "R2UR", "SHFL", "P2R", "R2P", "PLOP3", "F2F", "I2F", "F2I", "I2FP", "F2IP")),
    ("control", ("BRA", "BSSY", "BSYNC", "BAR", "EXIT", "WARPSYNC", "NOP", "CALL", "RET", "YIELD", "VOTE", "DEPBAR", "MEMBAR", "ERRBAR", "CCTL")),
]


def instruction_class(ins):
    op = re.sub(r"^@!?U?P[T0-9]+\s+", "", ins).split()[0].split(".")[0]
    for kind, ops in CLASSES:
        if op in ops:
            return kind
    if op.startswith("U"):
        return "uniform"
    return "other " + op


def main():
    args = sys.argv[1:]
    order = "--order" in args
    mix = "--mix" in args
    phases = "--phases" in args
    dump = None
    if "--dump" in args:
        at = args.index("--dump")
        dump = int(args[at + 1])
        del args[at:at + 2]
    files = [a for a in args if a not in ("--order", "--mix", "--phases")]
    if not files:
        sys.exit(__doc__)
    for path in files:
        name = os.path.basename(path)
        with tempfile.TemporaryDirectory() as tmp:
            ptx_path, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
            with open(ptx_path, "w") as f:
                f.write(ptx_of(open(path).read(), name))
            info = subprocess.run([tool("ptxas"), "-arch=sm_90", "-v", ptx_path, "-o", cubin], capture_output=True, text=True).stderr
            registers = re.search(r"Used (\d+) registers", info)
            spills = re.search(r"(\d+) bytes spill stores", info)
            sass = subprocess.run([tool("nvdisasm"), "-c", cubin], capture_output=True, text=True).stdout
            instructions = [re.sub(r"^\s*/\*[0-9a-f]+\*/\s*|\s*;.*$", "", l) for l in sass.splitlines() if re.match(r"^\s+/\*[0-9a-f]+\*/", l)]
            # Trailing padding after the last EXIT is not the kernel's.
            while instructions and instructions[-1].startswith(("NOP", "BRA")):
                instructions.pop()
        line = f"{name}: {registers.group(1) if registers else '?'} registers, {spills.group(1) if spills else '?'} bytes spilled, {len(instructions)} SASS instructions"
        if order:
            load_phase = []
            for ins in instructions:
                if "BAR.SYNC" in ins:
                    break
                load_phase.append("L" if "LDG" in ins else "S" if "STS" in ins else "|" if "BSYNC" in ins else "")
            line += "\n  load phase: " + " ".join(x for x in load_phase if x)
        if mix:
            line += "\n  mix: " + mix_of(instructions)
        stretches = [[]]
        for ins in instructions:
            stretches[-1].append(ins)
            if "BAR.SYNC" in ins:
                stretches.append([])
        if phases:
            for k, stretch in enumerate(stretches):
                line += f"\n  phase {k}: {len(stretch)}: {mix_of(stretch)}"
        if dump is not None:
            line += f"\n  phase {dump}:\n    " + "\n    ".join(stretches[dump] if dump < len(stretches) else [])
        print(line)


def mix_of(instructions):
    """The instructions by class, most first."""
    counts = {}
    for ins in instructions:
        kind = instruction_class(ins)
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    main()
