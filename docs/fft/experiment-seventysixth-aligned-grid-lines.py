"""Hand edit of a real grid kernel: lines P (a multiple of 16) apart in shared memory instead
of m + 1, one spare slot per 16 values instead of 32 (experiment, seventy-sixth session)."""
import re,sys
src,out=sys.argv[1],sys.argv[2]
s=open(src).read()
m=int(re.search(r"Grid \{ shape: \[\d+, (\d+)\]",s).group(1))
lines=int(re.search(r"Grid \{ shape: \[(\d+), \d+\]",s).group(1))
M1=m+1; P=(M1+15)//16*16
T=int(re.search(r"KERNEL_BLOCK\w*\((\d+)",s).group(1))
old_count=int(re.search(r"SHARED_ARRAY\(cplx, sh, (\d+)\)",s).group(1))
new_count=lines*P + (lines*P)//16 + 16
def sub_sh(mo):
    return mo.group(0).replace(f"* {M1}u", f"* {P}u")
n0=s.count(f"* {M1}u")
def balanced(text):
    outp=[];i=0
    for mo in re.finditer(r"\bSH(_AT)?\(s, ", text):
        if mo.start()<i: continue
        j=mo.end(); depth=1
        while depth:
            depth+= {'(':1,')':-1}.get(text[j],0); j+=1
        outp.append(text[i:mo.start()]); outp.append(text[mo.start():j].replace(f"* {M1}u", f"* {P}u")); i=j
    outp.append(text[i:]); return "".join(outp)
s=balanced(s)
def slot(mo):
    x=int(mo.group(1)); sign=mo.group(2)
    if sign=='+': l=x//M1; assert x==l*M1; return f"PAD({l*P}u + tid)"
    l=(x-m)//M1; assert x==l*M1+m; return f"PAD({l*P+m}u - tid)"
s=re.sub(r"PAD\((\d+)u ([+-]) tid\)", slot, s)
assert f"k * {T+T//32}u" in s
s=s.replace(f"k * {T+T//32}u", f"k * {T+T//16}u")
for a,b in [("#define PAD(i) ((i) + ((i) >> 5))","#define PAD(i) ((i) + ((i) >> 4))"),("+ (c) + ((c) >> 5)]","+ (c) + ((c) >> 4)]"),(f"SHARED_ARRAY(cplx, sh, {old_count})",f"SHARED_ARRAY(cplx, sh, {new_count})"),(f"sh[(row) * {old_count}u",f"sh[(row) * {new_count}u")]:
    assert a in s, a
    s=s.replace(a,b)
left=[l for l in s.splitlines() if f"{M1}u" in l and "SH" in l]
assert not left, left[:3]
open(out,"w").write(s)
print(f"m={m} lines={lines} P={P} T={T} shared {old_count}->{new_count} (+{(new_count-old_count)*8} bytes), {n0} strides")
