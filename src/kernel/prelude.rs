//! The kernel dialect: a prelude that makes one kernel text compile under NVRTC (CUDA C++)
//! and OpenCL C. Generated kernels use only these macros and type names for anything that
//! differs between the two.

/// Prepended to every generated kernel.
pub const PRELUDE: &str = r#"/* ---- coalesce prelude: one dialect for NVRTC (CUDA C++) and OpenCL C ---- */
#if defined(__CUDACC__)
/* CUDA */
#define KERNEL extern "C" __global__
#define KERNEL_BLOCK(threads) extern "C" __global__ __launch_bounds__(threads)
/* ... and at least `blocks` blocks resident per multiprocessor: caps registers per thread */
#define KERNEL_BLOCKS(threads, blocks) extern "C" __global__ __launch_bounds__(threads, blocks)
/* ... declared without __launch_bounds__ (blocks of at most 256 threads, where 255 registers
   a thread still fit): see fft/codegen's kernel_declaration */
#define KERNEL_BLOCK_UNBOUNDED(threads) extern "C" __global__
#define GLOBAL
#define LOCAL __shared__
#define RESTRICT __restrict__
#define DEVICE_FN static __device__ __forceinline__
#define BARRIER() __syncthreads()
/* Global loads written above it stay above it: ptxas does not move them across a warp sync,
   which costs next to nothing where the warp has not diverged (a batch of loads all in flight
   at once, where the scheduler would otherwise sink each to its first use). The mask is the
   lanes that exist: a block's last warp may be partial */
#define LOADS_ISSUED() __syncwarp(__activemask())
#define LOCAL_ID() ((u32)threadIdx.x)
/* A fact the compiler may build on, such as a thread index below the block's threads: with it
   NVRTC folds the row and slot arithmetic of a store loop's unrolled trips (see
   fft/codegen/strided.rs) */
#define ASSUME(cond) __builtin_assume(cond)
#define GROUP_ID() ((u32)blockIdx.x)
#define LOCAL_SIZE() ((u32)blockDim.x)
#define NUM_GROUPS() ((u32)gridDim.x)
typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;
/* 16-byte vectors: one load or store instruction each */
typedef uint4 u32x4;
typedef int4 i32x4;
typedef float4 f32x4;
typedef double2 f64x2;
typedef longlong2 i64x2;
typedef ulonglong2 u64x2;
typedef uint2 u32x2;
/* complex numbers: (re, im) in .x and .y, as numpy's complex64 / complex128 lay them out */
typedef float2 c32;
typedef double2 c64;
#define F32_INF __int_as_float(0x7f800000)
#define F64_INF __longlong_as_double(0x7ff0000000000000LL)
#define MAKE_C32(re, im) make_float2(re, im)
#define MAKE_C64(re, im) make_double2(re, im)
/* A block-shared array of `count` elements. CUDA takes its bytes from the launch's dynamic
   shared memory (Grid::shared_bytes must be at least count * sizeof(type)), which may exceed
   the 48 KiB a static array is allowed; OpenCL fixes the size at compile time. */
#define SHARED_ARRAY(type, name, count) \
    extern __shared__ __align__(16) unsigned char coalesce_dynamic_shared[]; \
    type* name = (type*)coalesce_dynamic_shared
#else
/* OpenCL C */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define KERNEL __kernel
#define KERNEL_BLOCK(threads) __kernel __attribute__((reqd_work_group_size(threads, 1, 1)))
#define KERNEL_BLOCKS(threads, blocks) KERNEL_BLOCK(threads)
#define KERNEL_BLOCK_UNBOUNDED(threads) KERNEL_BLOCK(threads)
#define GLOBAL __global
#define LOCAL __local
#define RESTRICT restrict
#define DEVICE_FN static inline
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define LOADS_ISSUED()
#define LOCAL_ID() ((u32)get_local_id(0))
#define ASSUME(cond)
#define GROUP_ID() ((u32)get_group_id(0))
#define LOCAL_SIZE() ((u32)get_local_size(0))
#define NUM_GROUPS() ((u32)get_num_groups(0))
typedef char i8;
typedef uchar u8;
typedef short i16;
typedef ushort u16;
typedef int i32;
typedef uint u32;
typedef long i64;
typedef ulong u64;
typedef float f32;
typedef double f64;
typedef uint4 u32x4;
typedef int4 i32x4;
typedef float4 f32x4;
typedef double2 f64x2;
typedef long2 i64x2;
typedef ulong2 u64x2;
typedef uint2 u32x2;
typedef float2 c32;
typedef double2 c64;
#define F32_INF INFINITY
#define F64_INF HUGE_VAL
#define MAKE_C32(re, im) ((float2)((re), (im)))
#define MAKE_C64(re, im) ((double2)((re), (im)))
#define SHARED_ARRAY(type, name, count) __local type name[count]
#endif
/* ---- end of prelude ---- */
"#;

/// The 16-byte vector type of a scalar type and its lane count, where the dialect has one.
pub fn vector16(scalar: &str) -> Option<(&'static str, usize)> {
    Some(match scalar {
        "u32" => ("u32x4", 4),
        "i32" => ("i32x4", 4),
        "f32" => ("f32x4", 4),
        "f64" => ("f64x2", 2),
        "i64" => ("i64x2", 2),
        "u64" => ("u64x2", 2),
        _ => return None,
    })
}

/// Names of a vector's lanes, in order, in the syntax both dialects share.
pub const LANES: [&str; 4] = ["x", "y", "z", "w"];

/// The dialect's word type of a power-of-two byte width up to 16: the unit a copy moves.
pub fn word_type(bytes: usize) -> Option<&'static str> {
    Some(match bytes {
        1 => "u8",
        2 => "u16",
        4 => "u32",
        8 => "u64",
        16 => "u32x4",
        _ => return None,
    })
}
