# Hand-edit experiment: each block of a strided pass prefetches into L2 the tile of the block
# one wave (W blocks) after it. usage: patch.py SRC_DIR DST_DIR WAVES [where]
import re, sys, os, glob
src, dst, waves = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.makedirs(dst, exist_ok=True)
for f in glob.glob(src + '/*.cu'):
    t = open(f).read()
    name = os.path.basename(f)[:-3]
    if 'cluster' in name: continue
    m = re.search(r'SHARED_ARRAY\(cplx, sh, (\d+)\)', t)
    shared = int(m.group(1)) * 8
    threads = int(re.search(r'KERNEL_BLOCK\((\d+)\)', t).group(1))
    rows = int(re.search(r'GROUP_ID\(\) \* (\d+)u;', t).group(1))
    stride = int(re.search(r'cplx v = row\[\(u64\)i \* (\d+)u\]', t).group(1))
    n = int(re.search(r'_n(\d+)_', name).group(1))
    per_sm = min(233472 // (shared + 1024), 2048 // threads, 32)
    w = int(round(132 * per_sm * waves))
    code = f'''    {{ /* L2 prefetch of the tile of the block {w} after this one ({per_sm} a multiprocessor) */
        const u64 nf = ((u64)GROUP_ID() + {w}u) * {rows}u;
        if (nf < batch) {{
            const GLOBAL cplx* nrow = in + input_offset(nf);
            for (u32 i = tid; i < {n}u; i += {threads}u) asm volatile("prefetch.global.L2 [%0];" :: "l"(nrow + (u64)i * {stride}u));
        }}
    }}
'''
    # after the first pass's read block: before the first line that calls dft_ in the kernel body
    body = t.index('KERNEL_BLOCK(')
    k = t.index('dft_', t.index('read_value(in_row', body))
    line = t.rindex('\n', 0, k) + 1
    # go to the start of the enclosing "{" block: insert before the line "         {" preceding
    blk = t.rindex('         {\n', 0, line)
    t = t[:blk] + code + t[blk:]
    open(os.path.join(dst, os.path.basename(f)), 'w').write(t)
    print(name, 'shared', shared, 'threads', threads, 'rows', rows, 'stride', stride, 'W', w)
