// Prints the variant manifest: one line per row of variants.def, with the facts the Java side launches it by
// (org.tomospark.executor.backends.cuda.KernelManifest reads it). Every number comes from the constants and types
// the kernels themselves are compiled with (layout.cuh), and every name from the macros that name the kernels
// (variants.cuh). A host program: kernels/build-ptx.sh compiles it with nvcc and runs it on the build machine.
//
// Line format: the kernel's symbol, then key=value pairs:
//   set             product | explore (variants.def)
//   family          std | tex | alu | tc
//   k               slices per bin; format float32 | half; interpolation linear | nearest
//   order           thread order of the texture kernels: l | z, else -
//   caching         adv | std for the shared-memory kernels, else -
//   tile, rows      pixels per block along x and y; threads per block; ppt pixels per thread
//   texShare        projections of every batch read through the texture (hybrids), else 0
//   halfMath        none | h2 | h2p | h4p | h8p
//   texRead         how the texture is read: filtered (hardware interpolation) | exact | entries | none
//   minBlocks       minimum resident blocks per SM asked of the compiler, else 0; maxRegs register cap, else 0
//   fill            how the cache is filled: registers | entries (cp.async from the entries array) |
//                   bins (cp.async from the compound sinogram) | none
//   batch           projections per buffer of a cp.async-filled cache, else 0
//   groupsPerBlock  groups (compound sinograms) one block back-projects
//   dynamicShared   bytes of dynamic shared memory the launch must give
//   maxProjections  projections the kernel takes at most (constant memory), 0 for any number
//   entryBytes      bytes of one entry of the entries array it reads, else 0
//   args            its parameter list (KernelArgs.Signature)
//   pack, absmax, entries  the helper kernels that prepare its input, or -
// The first line that is not a comment, compiled=SETS, names the sets compiled into the modules beside the manifest.
// Then the facts of the kernels outside variants.def (fdk.cuh, joseph.cuh): their constants and the product's kernels,
//   constant NAME VALUE
//   kernel FAMILY NAME key=value ...   (a family's lines all have the same keys)
// After them, one line per parameter list of signatures.cuh:
//   signature ID kernel=NAME params=NAME:KIND,...
// kernel is the name of a kernel of its own, - for a family's list; KIND is how the Java side passes the parameter:
// ptr (a device pointer), handle (a texture object, or 0), i32, i64, f32, f64, or bytesN (a struct of N bytes by value).
#include <cstdio>
#include <type_traits>

#include "fdk.cuh"
#include "joseph.cuh"
#include "layout.cuh"
#include "signatures.cuh"
#include "variants.cuh"

namespace {

struct Row {
    const char* name = "";
    const char* set = "";
    const char* family = "";
    int k = 0;
    const char* format = "";
    const char* interpolation = "";
    const char* order = "-";
    const char* caching = "-";
    int tile = 0, rows = 0, threads = 0, ppt = 0, texShare = 0;
    const char* halfMath = "none";
    const char* texRead = "none";
    int minBlocks = 0, maxRegs = 0;
    const char* fill = "none";
    int batch = 0, groupsPerBlock = 1, dynamicShared = 0, maxProjections = 0, entryBytes = 0;
    const char* args = "";
    const char* pack = "-";
    const char* absmax = "-";
    const char* entries = "-";
};

void print(const Row& r) {
    std::printf("%s set=%s family=%s k=%d format=%s interpolation=%s order=%s caching=%s tile=%d rows=%d threads=%d "
                "ppt=%d texShare=%d halfMath=%s texRead=%s minBlocks=%d maxRegs=%d fill=%s batch=%d groupsPerBlock=%d "
                "dynamicShared=%d maxProjections=%d entryBytes=%d args=%s pack=%s absmax=%s entries=%s\n",
                r.name, r.set, r.family, r.k, r.format, r.interpolation, r.order, r.caching, r.tile, r.rows, r.threads,
                r.ppt, r.texShare, r.halfMath, r.texRead, r.minBlocks, r.maxRegs, r.fill, r.batch, r.groupsPerBlock,
                r.dynamicShared, r.maxProjections, r.entryBytes, r.args, r.pack, r.absmax, r.entries);
}

const char* formatName(bool half) { return half ? "half" : "float32"; }
const char* interpolationName(bool nearest) { return nearest ? "nearest" : "linear"; }
const char* texReadName(int tx) { return tx == 2 ? "entries" : tx == 1 ? "exact" : "filtered"; }

// The texture kernels read the compound sinogram as a float or half texture: one kernel serves both storages, with
// the packing of each; it is listed once per storage.
void textureRows(Row r, const char* packF, const char* packH) {
    r.tile = r.rows = TS_TEX_TILE;
    r.threads = TS_TEX_THREADS;
    r.texRead = "filtered";
    r.maxProjections = TS_MAX_CONST_PROJ;
    r.args = "TEXTURE";
    r.format = formatName(false);
    r.pack = packF;
    print(r);
    r.format = formatName(true);
    r.pack = packH;
    print(r);
}

template <int K, bool HALF>
int entryBytes() {
    return (int)sizeof(CacheEntry<K, HALF, true>);
}

template <class T>
inline constexpr bool unsupported = false;

// How the Java side passes a parameter of type T (as the kernel's function type has it: top-level const dropped).
template <class T>
void printKind() {
    if constexpr (std::is_pointer_v<T>) std::printf("ptr");
    else if constexpr (std::is_same_v<T, cudaTextureObject_t>) std::printf("handle");
    else if constexpr (std::is_same_v<T, int>) std::printf("i32");
    else if constexpr ((std::is_same_v<T, long> || std::is_same_v<T, long long>) && sizeof(T) == 8) std::printf("i64");
    else if constexpr (std::is_same_v<T, float>) std::printf("f32");
    else if constexpr (std::is_same_v<T, double>) std::printf("f64");
    else if constexpr (std::is_same_v<T, CUtensorMap>) std::printf("bytes%d", (int)sizeof(T));
    else static_assert(unsupported<T>, "a kernel parameter of a type the Java side has no way to pass");
}

template <class F>
struct Params;

template <class... A>
struct Params<void(A...)> {
    static constexpr int count = sizeof...(A);

    static void print(const char* const* names) {
        int i = 0;
        ((std::printf("%s%s:", i == 0 ? "" : ",", names[i]), printKind<A>(), i++), ...);
    }
};

template <class F, int N>
void printSignature(const char* id, const char* kernel, const char* const (&names)[N]) {
    static_assert(Params<F>::count == N, "one name per parameter");
    std::printf("signature %s kernel=%s params=", id, kernel);
    Params<F>::print(names);
    std::printf("\n");
}

}  // namespace

// Every parameter list declared as a kernel's, for its parameters' types (declarations only: never defined or called).
#define TS_DECLARE(ID) __global__ void ts_signature_##ID(TS_PARAMS_##ID);
TS_FAMILIES(TS_DECLARE)
TS_KERNELS(TS_DECLARE)

#define TS_ROW(SET, NAME) \
    Row r;                \
    r.name = TS_STR(NAME); \
    r.set = #SET;

#define BP_STD(SET, K, IN, ORD)                                                                                 \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_STD(K, IN, ORD))                                                                   \
        r.family = "std";                                                                                      \
        r.k = K;                                                                                               \
        r.interpolation = interpolationName(TS_NN_##IN);                                                       \
        r.order = #ORD;                                                                                        \
        r.ppt = 1;                                                                                             \
        textureRows(r, TS_STR(TS_NAME_PACK(K, f)), TS_STR(TS_NAME_PACK(K, h)));                                \
    }
#define BP_TEX(SET, K, IN)                                                                                      \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_TEX(K, IN))                                                                        \
        r.family = "tex";                                                                                      \
        r.k = K;                                                                                               \
        r.interpolation = interpolationName(TS_NN_##IN);                                                       \
        r.order = "z";                                                                                         \
        r.ppt = 4;                                                                                             \
        textureRows(r, TS_STR(TS_NAME_PACK(K, f)), TS_STR(TS_NAME_PACK(K, h)));                                \
    }
#define BP_ALU(SET, K, F, IN, CA, TILE, PPT, SD, ST, HM, TX, MB)                                                \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_ALU(K, F, IN, CA, TILE, PPT, ST, HM, TX, MB))                                      \
        r.family = "alu";                                                                                      \
        r.k = K;                                                                                               \
        r.format = formatName(TS_HALF_##F);                                                                    \
        r.interpolation = interpolationName(TS_NN_##IN);                                                       \
        r.caching = #CA;                                                                                       \
        r.tile = r.rows = TILE;                                                                                \
        r.threads = TILE * TILE / PPT;                                                                         \
        r.ppt = PPT;                                                                                           \
        r.texShare = ST;                                                                                       \
        r.halfMath = #HM;                                                                                      \
        r.texRead = ST > 0 ? texReadName(TS_TX_##TX) : "none";                                                 \
        r.minBlocks = MB;                                                                                      \
        r.fill = "registers";                                                                                  \
        r.args = "ALU";                                                                                        \
        r.pack = TS_STR(TS_NAME_PACK(K, F));                                                                   \
        if (ST > 0 && TS_TX_##TX == 2) {                                                                       \
            r.entryBytes = entryBytes<K, TS_HALF_##F>();                                                       \
            r.entries = TS_STR(TS_NAME_ENTRIES_##F(K));                                                        \
        }                                                                                                      \
        print(r);                                                                                              \
    }
#define BP_ASYNC(SET, K, F, TILE, PPT, SD, HM, RG, SUF)                                                         \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_ASYNC(K, F, TILE, PPT, HM, RG, SUF))                                               \
        r.family = "alu";                                                                                      \
        r.k = K;                                                                                               \
        r.format = formatName(TS_HALF_##F);                                                                    \
        r.interpolation = interpolationName(false);                                                            \
        r.caching = "adv";                                                                                     \
        r.tile = r.rows = TILE;                                                                                \
        r.threads = TILE * TILE / PPT;                                                                         \
        r.ppt = PPT;                                                                                           \
        r.halfMath = #HM;                                                                                      \
        r.maxRegs = RG;                                                                                        \
        r.fill = "entries";                                                                                    \
        r.batch = SD;                                                                                          \
        r.entryBytes = entryBytes<K, TS_HALF_##F>();                                                           \
        r.args = "ALU";                                                                                        \
        r.pack = TS_STR(TS_NAME_PACK(K, F));                                                                   \
        r.entries = TS_STR(TS_NAME_ENTRIES_##F(K));                                                            \
        print(r);                                                                                              \
    }
#define BP_WIN(SET, TILE, PPT, SD, HM)                                                                          \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_WIN(TILE, PPT, SD, HM))                                                            \
        r.family = "alu";                                                                                      \
        r.k = 8;                                                                                               \
        r.format = formatName(true);                                                                           \
        r.interpolation = interpolationName(false);                                                            \
        r.caching = "std";                                                                                     \
        r.tile = r.rows = TILE;                                                                                \
        r.threads = TILE * TILE / PPT;                                                                         \
        r.ppt = PPT;                                                                                           \
        r.halfMath = #HM;                                                                                      \
        r.fill = "bins";                                                                                       \
        r.batch = SD;                                                                                          \
        r.dynamicShared = WinLayout<TILE, SD>::BYTES;                                                          \
        r.args = "WINDOW";                                                                                     \
        r.pack = TS_STR(TS_NAME_PACK_WIN(8));                                                                  \
        r.absmax = TS_STR(TS_NAME_ABSMAX(8));                                                                  \
        print(r);                                                                                              \
    }
#define BP_WINF(SET, K, TILE, PPT, SD)                                                                          \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_WINF(K, TILE, PPT, SD))                                                            \
        r.family = "alu";                                                                                      \
        r.k = K;                                                                                               \
        r.format = formatName(false);                                                                          \
        r.interpolation = interpolationName(false);                                                            \
        r.caching = "std";                                                                                     \
        r.tile = r.rows = TILE;                                                                                \
        r.threads = TILE * TILE / PPT;                                                                         \
        r.ppt = PPT;                                                                                           \
        r.fill = "bins";                                                                                       \
        r.batch = SD;                                                                                          \
        r.dynamicShared = WinLayout<TILE, SD, K / 4>::BYTES;                                                   \
        r.args = "ALU";                                                                                        \
        r.pack = TS_STR(TS_NAME_PACK(K, f));                                                                   \
        print(r);                                                                                              \
    }
#define BP_TC(SET, KB, TX, TY, SD)                                                                              \
    {                                                                                                          \
        TS_ROW(SET, TS_NAME_TC(KB, TX, TY, SD))                                                                \
        typedef TcLayout<KB, TX, TY, SD> L;                                                                    \
        r.family = "tc";                                                                                       \
        r.k = KB;                                                                                              \
        r.format = formatName(true);                                                                           \
        r.interpolation = interpolationName(false);                                                            \
        r.tile = TX;                                                                                           \
        r.rows = TY;                                                                                           \
        r.threads = L::NT;                                                                                     \
        r.fill = "bins";                                                                                       \
        r.batch = SD;                                                                                          \
        r.groupsPerBlock = L::GB;                                                                              \
        r.dynamicShared = L::BYTES;                                                                            \
        r.args = "TENSOR";                                                                                     \
        r.pack = TS_STR(TS_NAME_PACK_WIN(KB));                                                                 \
        r.absmax = TS_STR(TS_NAME_ABSMAX(KB));                                                                 \
        print(r);                                                                                              \
    }

// argv[1]: the sets compiled into the modules beside the manifest, e.g. "product" or "product,explore"
int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: manifest SETS (the sets compiled beside it: product or product,explore)\n");
        return 2;
    }
    std::printf("# tomospark CUDA variant manifest: every row of kernels/variants.def, printed by kernels/manifest.cpp\n"
                "# (kernels/build-ptx.sh); the modules beside it hold the rows of the sets named by 'compiled'.\n"
                "compiled=%s\n", argv[1]);
#include "variants.def"

#define TS_CONSTANT(NAME) std::printf("constant %s %d\n", #NAME, (int)(NAME));
    TS_CONSTANT(FDK_MAX_PROJECTIONS)
    TS_CONSTANT(FDK_THREADS)
    TS_CONSTANT(FDK_PAIR_GUARD)
    TS_CONSTANT(FDK_TILE_X)
    TS_CONSTANT(FDK_TILE_Y)
    TS_CONSTANT(FDK_SPLIT_TILE_Y)
    TS_CONSTANT(FDK_NAIVE_X)
    TS_CONSTANT(FDK_NAIVE_Y)
    TS_CONSTANT(FDK_NAIVE_Z)
    TS_CONSTANT(FDK_TENSOR_ALIGNMENT)
    std::printf("constant FDK_LOCAL_BYTES %d\n", (int)sizeof(FdkLocal));
    TS_CONSTANT(JOSEPH_THREADS)
    TS_CONSTANT(JOSEPH_GUARD)
    TS_CONSTANT(JOSEPH_FRACTION_BITS)
    TS_CONSTANT(JOSEPH_TAB)
    TS_CONSTANT(JT_VOFF)
    TS_CONSTANT(JT_VCOS)
    TS_CONSTANT(JT_VSTEP)
    TS_CONSTANT(JT_VSGN)
    TS_CONSTANT(JT_FPOS0)
    TS_CONSTANT(JT_FRAY)
    TS_CONSTANT(JT_FLINE)
    TS_CONSTANT(JT_FFLAGS)
    TS_CONSTANT(JT_FLAT)
    TS_CONSTANT(JT_NEGATIVE)
    TS_CONSTANT(JOSEPH_FTAB)
    TS_CONSTANT(JF_IG)
    TS_CONSTANT(JF_IG2)
    TS_CONSTANT(JF_W)

// FDK's back-projection kernels: the part each plays (role), its kind, slices a block, columns a thread, projections of
// every tiles + textured read from tiles and through the texture, blocks an SM asked (0: none)
#define TS_FDK(NAME, ROLE, KIND, Z, C, B, T, M)                                                                        \
    std::printf("kernel FDK %s role=%s kind=%s z=%d columns=%d tiles=%d textured=%d blocks=%d\n", NAME, ROLE, KIND, Z,  \
                C, B, T, M);
    TS_FDK(TS_STR(FDK_NAME_NAIVE), "NAIVE", "NAIVE", FDK_NAIVE_Z, 1, 0, 0, 0)
#define TS_FDK_COL(ROLE, Z, C, B, M) TS_FDK(TS_STR(FDK_NAME_COL(Z, C, B, M)), #ROLE, "COLUMNS", Z, C, B, 0, M)
#define TS_FDK_GEN(ROLE, Z, C, B, M) TS_FDK(TS_STR(FDK_NAME_GEN(Z, C, B, M)), #ROLE, "GENERAL", Z, C, B, 0, M)
#define TS_FDK_SPLIT(ROLE, Z, C, B, T, M) TS_FDK(TS_STR(FDK_NAME_SPLIT(Z, C, B, T, M)), #ROLE, "HYBRID", Z, C, B, T, M)
#define TS_FDK_TSPLIT(ROLE, Z, C, B, T, M)                                                                             \
    TS_FDK(TS_STR(FDK_NAME_TSPLIT(Z, C, B, T, M)), #ROLE, "TENSOR_HYBRID", Z, C, B, T, M)
#define TS_FDK_HTEX(ROLE, Z, C, M) TS_FDK(TS_STR(FDK_NAME_HTEX(Z, C, M)), #ROLE, "TEXTURE", Z, C, 0, 1, M)
#define TS_FDK_GHTEX(ROLE, Z, C, M) TS_FDK(TS_STR(FDK_NAME_GHTEX(Z, C, M)), #ROLE, "GENERAL_TEXTURE", Z, C, 0, 1, M)
    FDK_PRODUCT(TS_FDK_COL, TS_FDK_GEN, TS_FDK_SPLIT, TS_FDK_TSPLIT, TS_FDK_HTEX, TS_FDK_GHTEX)

// the Joseph pair's kernels, each list in preference order: c slices a thread, u rays or r image rows a thread, a
// projections a thread, b groups a block
#define TS_JOSEPH_FORWARD(C, U, A, B)                                                                                  \
    std::printf("kernel JOSEPH_FORWARD %s c=%d u=%d a=%d b=%d\n", TS_STR(JOSEPH_NAME_FORWARD(C, U, A, B)), C, U, A, B);
#define TS_JOSEPH_BACK(C, R, B)                                                                                        \
    std::printf("kernel JOSEPH_BACK %s c=%d r=%d b=%d\n", TS_STR(JOSEPH_NAME_BACK(C, R, B)), C, R, B);
    JOSEPH_PRODUCT(TS_JOSEPH_FORWARD, TS_JOSEPH_BACK)

// the lists again, now for their names
#undef TS_PARAM0
#undef TS_PARAM
#define TS_PARAM0(T, N) #N
#define TS_PARAM(T, N) , #N
#define TS_PRINT_FAMILY(ID) printSignature<decltype(ts_signature_##ID)>(#ID, "-", {TS_PARAMS_##ID});
#define TS_PRINT_KERNEL(ID) printSignature<decltype(ts_signature_##ID)>(#ID, TS_STR(TS_NAME_##ID), {TS_PARAMS_##ID});
    TS_FAMILIES(TS_PRINT_FAMILY)
    TS_KERNELS(TS_PRINT_KERNEL)
    return 0;
}
