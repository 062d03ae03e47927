// What the tokens of kernels/variants.def mean, and the kernel names built from them: shared by backproject.cu
// (which instantiates the rows) and kernels/manifest.cpp (which describes them to the Java side).
#pragma once

#define TS_CAT_(a, b) a##b
#define TS_CAT(a, b) TS_CAT_(a, b)
#define TS_STR_(x) #x
#define TS_STR(x) TS_STR_(x)

// A row is instantiated when its set is built: product always, explore when compiled with -DTS_EXPLORE=1.
#define TS_IN_SET_product(...) __VA_ARGS__
#if defined(TS_EXPLORE) && TS_EXPLORE
#define TS_IN_SET_explore(...) __VA_ARGS__
#else
#define TS_IN_SET_explore(...)
#endif

// storage: f float32, h half
#define TS_HALF_f false
#define TS_HALF_h true
// interpolation
#define TS_NN_lin false
#define TS_NN_nn true
// texture kernels' thread order: l row-major, z Z-order remap (Algorithm 2)
#define TS_Z_l false
#define TS_Z_z true
// caching: adv value and difference (Algorithm 9), std bins
#define TS_ADV_adv true
#define TS_ADV_std false
// packed-half arithmetic (HM of bpAlu) and its name suffix
#define TS_HM_none 0
#define TS_HM_h2 1
#define TS_HM_h2p 2
#define TS_HM_h4p 3
#define TS_HM_h8p 4
#define TS_HS_none
#define TS_HS_h2 _h2
#define TS_HS_h2p _h2p
#define TS_HS_h4p _h4p
#define TS_HS_h8p _h8p
// projections per half2 partial sum of the register-window kernel
#define TS_STEP_h4p 4
#define TS_STEP_h8p 8
// how a hybrid reads its texture share (TX of bpAlu) and its name suffix
#define TS_TX_hw 0
#define TS_TX_x 1
#define TS_TX_xe 2
#define TS_XS_hw
#define TS_XS_x _x
#define TS_XS_xe _xe
// minimum resident blocks per SM asked of the register allocator, and its name suffix
#define TS_MINB_0(NT) __launch_bounds__(NT)
#define TS_MINB_4(NT) __launch_bounds__(NT, 4)
#define TS_MINB_8(NT) __launch_bounds__(NT, 8)
#define TS_MINB_10(NT) __launch_bounds__(NT, 10)
#define TS_BS_0
#define TS_BS_4 _b4
#define TS_BS_8 _b8
#define TS_BS_10 _b10
// register cap per thread (0: the compiler's choice; a minimum-blocks bound of 1 let ptxas take 126-173 registers
// and cost 5-12%, so the async kernels take no bound on blocks) and its name suffix
#define TS_BOUNDS_0(NT) __launch_bounds__(NT)
#define TS_BOUNDS_64(NT) __maxnreg__(64)
#define TS_BOUNDS_80(NT) __maxnreg__(80)
#define TS_BOUNDS_96(NT) __maxnreg__(96)
#define TS_BOUNDS_112(NT) __maxnreg__(112)
#define TS_RS_0
#define TS_RS_64 _r64
#define TS_RS_80 _r80
#define TS_RS_96 _r96
#define TS_RS_112 _r112

// kernel names
#define TS_NAME_STD(K, IN, ORD) bp_std_k##K##_##IN##_##ORD
#define TS_NAME_TEX(K, IN) bp_tex_k##K##_##IN
#define TS_NAME_ALU(K, F, IN, CA, TILE, PPT, ST, HM, TX, MB)                                                   \
    TS_CAT(TS_CAT(TS_CAT(bp_alu_k##K##_##F##_##IN##_##CA##_t##TILE##p##PPT##_s##ST, TS_HS_##HM), TS_XS_##TX), \
           TS_BS_##MB)
#define TS_NAME_ASYNC(K, F, TILE, PPT, HM, RG, SUF) \
    TS_CAT(TS_CAT(TS_CAT(bp_alu_k##K##_##F##_lin_adv_t##TILE##p##PPT##_s0, TS_HS_##HM), TS_RS_##RG), _##SUF)
#define TS_NAME_WIN(TILE, PPT, SD, HM) TS_CAT(bp_alu_k8_h_lin_win_t##TILE##p##PPT##_s##SD, TS_HS_##HM)
#define TS_NAME_WINF(K, TILE, PPT, SD) bp_alu_k##K##_f_lin_win_t##TILE##p##PPT##_s##SD
#define TS_NAME_TC(KB, TX, TY, SD) bp_tc_k##KB##_h_lin_t##TX##x##TY##_s##SD
// helper kernels: the compound sinogram's packing (plain, or scaled by a power of two per group), a group's
// largest magnitude, the entries array (value and difference per bin; half entries for packed-half arithmetic)
#define TS_NAME_PACK(K, F) bp_pack_k##K##_##F
#define TS_NAME_PACK_WIN(K) bp_pack_k##K##_h_win
#define TS_NAME_ABSMAX(K) bp_absmax_k##K
#define TS_NAME_ENTRIES_f(K) bp_entries_k##K##_f
#define TS_NAME_ENTRIES_h(K) bp_entries_k##K##_h_h2
