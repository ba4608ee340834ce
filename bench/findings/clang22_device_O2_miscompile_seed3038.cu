#include <cstdio>
#include <cstring>
struct LayS0 {
long m0;
unsigned char m1;
long long m2;
unsigned long m3;
};
enum LayE1 : char {  };
static void cudiff_check(cudaError_t status, const char* what) {
}
static unsigned long long cudiff_input(unsigned int index, unsigned int salt, unsigned int mode) {
unsigned long long x = (index + 1ull) * 0x9E3779B97F4A7C15ull ^ salt;
return x;
}
static unsigned long long cudiff_fold(const unsigned long long* words, size_t count) {
unsigned long long hash = 1469598103934665603ull;
for (size_t i = 0; i < count; ++i) {
hash ^= words[i];
}
return hash;
}
namespace cudiff_test_1 {
inline namespace v1 {
constexpr long long kConst408 = 6354324148680705288ll;
constexpr unsigned int kConst412 = 0u;
constexpr char kConst414 = ((char)1);
constexpr long long kConst418 = 2ll;
constexpr long long kConst420 = (-9223372036854775807ll - 1);
constexpr long long kConst429 = (-6ll);
constexpr int kConst430 = (-2147483647 - 1);
constexpr char kConst434 = ((char)(-128));
constexpr unsigned long long kConst436 = 0ull;
constexpr unsigned short kConst437 = ((unsigned short)55546);
constexpr short kConst440 = ((short)15952);
constexpr int kConst443 = 2147483647;
constexpr int kConst444 = 2147483646;
constexpr int kConst457 = (-1962655853);
constexpr int kConst464 = 2;
constexpr int kConst465 = 5;
constexpr unsigned short kConst474 = ((unsigned short)38983);
constexpr unsigned int kConst477 = 2583361273u;
constexpr signed char kConst480 = ((signed char)1);
constexpr unsigned int kConst489 = 4u;
constexpr unsigned char kConst492 = ((unsigned char)173);
constexpr int kConst510 = (-7);
constexpr long long kConst516 = (-10ll);
__constant__ signed char cmem392[16];
static const signed char cmem392_init[16] = {};
__device__ int gmem393[16] = {(-1286392640), 1322755280, 1707353526, 5, (-1), (-229721675), (-490900448), 906560883, 0, (-1945581011), (-2147483647 - 1), 1, 11, 12, (-320471445), 7};
__device__ unsigned char gmem394[16] = {((unsigned char)61), ((unsigned char)14), ((unsigned char)8), ((unsigned char)138), ((unsigned char)34), ((unsigned char)0), ((unsigned char)156), ((unsigned char)0), ((unsigned char)10), ((unsigned char)72), ((unsigned char)14), ((unsigned char)5), ((unsigned char)255), ((unsigned char)215), ((unsigned char)254), ((unsigned char)167)};
struct kernel_1_constants {
unsigned long long p396;
};
__device__ unsigned long long kernel_1_partials0[2];
__device__ unsigned int kernel_1_ticket0;
__device__ unsigned long long kernel_1_partials1[2];
__device__ unsigned int kernel_1_ticket1;
__global__ void kernel_1(unsigned long long* out, const bool* in, signed char p395, const __grid_constant__ kernel_1_constants gc) {
const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
__shared__ unsigned char sh445[64];
unsigned short v397 = ((in[((int)in[gtid])] != gtid) - ((gtid != tid) * (-((p395 * p395) <= (gridDim.y ^ tid)))));
unsigned char c446 = sh445[(tid ^ 47u) & 63u];
{
__shared__ unsigned long long block_sum;
__shared__ bool last_block;
const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
if (tid == 0) block_sum = 0;
__syncthreads();
atomicAdd(&block_sum, (unsigned long long)(((((kConst412 & tid) >> ((c446 - ((unsigned short)9)) & 31)) ^ blockDim.y) != (((gridDim.y & v397) - (threadIdx.y + v397)) || (!(gc.p396 == ((unsigned char)1)))))));
__syncthreads();
if (tid == 0) {
kernel_1_partials0[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = block_sum;
__threadfence();
const unsigned int drawn = atomicInc(&kernel_1_ticket0, blocks - 1);
last_block = drawn == blocks - 1;
}
__syncthreads();
if (tid == 0 && last_block) {
unsigned long long total = 0;
for (unsigned int b = 0; b < blocks; ++b) total += ((volatile unsigned long long*)kernel_1_partials0)[b];
out[384u] = total;
}
}
signed char v447 = (((gtid + ((unsigned char)0)) << (4ll & tid)) / (((-1497940056251250268ll) | gtid) - (gtid | tid)));
for (int i452 = -3; i452 < 12; i452 += 3) {
for (int i453 = -1; i453 < 15; i453 += 2) {
int v454 = (i452 + gmem393[(((long long)(((blockIdx.z ? i453 : (-4816049107231374310ll)) - (tid ? gc.p396 : ((signed char)(-27)))) >> (!(-i453)))) & 15)]);
if ((((((v454 - tid) + i452) - (((-3069917097540841797ll) ^ i453) | i452)) + ((in[1ull] + in[threadIdx.x]) && (i452 + 6))) % gmem393[(!(((unsigned short)65535) ^ (-6ll)))])) {
if (gmem393[((6374746316928352999ll ^ (4294967295u >> ((int)(!(blockDim.x ? ((unsigned char)16) : tid))))) & 15)]) {
} else {
unsigned int v455 = (c446 - gmem393[((i452 ? (3834866826u - ((p395 >> ((-2133548643) & 31)) >> ((long long)gridDim.x))) : (~((p395 && gridDim.x) << ((gc.p396 - i452) & 31)))) & 15)]);
short v456 = ((char)127);
v397 ^= gc.p396;
v447 |= (((i452 % v455) - (v454 * 18446744073709551615ull)) << (false / (i453 + i453)));
v455 -= (((p395 / v455) == (((kConst430 - (-2147483647 - 1)) | 3085845191446846447ll) + ((c446 + v454) <= v454))) - in[(v455 & ((int)kConst414))]);
}
for (int i458 = 4; i458 < 5; i458 += 1) {
unsigned long long v459 = tid;
v459 += ((i458 + (((unsigned short)9) + i452)) | (~(blockDim.z ? blockIdx.z : ((unsigned short)34209))));
int v460 = blockIdx.x;
unsigned long long v461 = (p395 - (!(1ull > ((i458 + threadIdx.x) | (1ull - kConst443)))));
bool v462 = v460;
}
for (int i463 = -3; i463 < 0; i463 += 3) {
v397 ^= (((((unsigned int)(4294967295u && 1796592757u)) - ((gtid % (-223719692777167372ll)) * ((unsigned long long)i463))) > 4294967294u) | ((gmem394[(gc.p396 <= tid)] - ((0u / kConst420) == (gtid * i453))) ^ (-9223372036854775807ll - 1)));
long long v466 = ((~((gc.p396 ^ tid) ? (kConst414 - kConst444) : (tid - blockDim.z))) >> ((gmem393[(true - 0ll)] + ((p395 * i463) | (-11))) & 31));
v397 ^= gmem394[(((short)(-32768)) & 15)];
}
v397 ^= true;
unsigned long long v467 = ((((~(p395 - 10ull)) - gc.p396) & i453) << (gc.p396 * (i452 / (p395 | 6))));
}
v397 ^= (((gtid + kConst429) >> (1 + kConst418)) + i452);
for (int i468 = 5; i468 < 6; i468 += 1) {
for (int i469 = -4; i469 < -2; i469 += 2) {
v397 ^= blockIdx.x;
unsigned int v470 = (((-tid) % gmem394[((-15ll) & 15)]) << (((bool)c446) * (!c446)));
v397 ^= ((in[gtid] != i469) >> (gtid * (!blockDim.z)));
}
int v471 = ((v454 & (-(18446744073709551615ull << true))) >= ((-8) >> ((((-16ll) ^ i452) || (i468 & (-2147483647 - 1))) >> ((16 * (v454 ? gtid : blockIdx.y)) & 31))));
if (cmem392[((((c446 != i452) < (threadIdx.x * v471)) + (i453 & cmem392[i468])) & 15)]) {
v471 /= (-5508156676052708179ll);
v447 ^= i468;
v471 |= ((long long)3304790837u);
} else {
v447 &= kConst465;
unsigned long long v472 = (((char)(-13)) ? v471 : gmem393[(gc.p396 >= (kConst464 || (c446 * tid)))]);
unsigned long long v473 = (((v472 & in[((p395 | v471) & 511)]) < true) & (cmem392[(((-26434023) ? ((unsigned short)0) : gtid) * p395)] >= 1));
v472 = (kConst420 - ((gmem394[blockIdx.x] ? (i452 | p395) : ((-360659796) + gc.p396)) + ((5ll & gridDim.x) < (((unsigned char)166) ? ((short)32767) : v473))));
int v475 = gmem394[(v472 && ((unsigned int)((gridDim.z | gc.p396) - (i468 - v454))))];
}
unsigned char v476 = tid;
v476 = (((int)((kConst440 || blockDim.z) + tid)) * (((((int)v476) ^ (((unsigned char)0) * c446)) + (!p395)) + (((-gtid) - (gtid - tid)) % (threadIdx.y | ((short)(-14284))))));
}
v397 ^= v454;
}
switch ((tid ? (tid - gc.p396) : ((tid % p395) + (gridDim.z & p395)))) {
case 7443209241460450360ull: {
bool v479 = ((int)((((i452 + blockIdx.z) < (i452 * tid)) + ((gc.p396 / ((signed char)3)) & in[false])) ? (((threadIdx.y || c446) & ((signed char)(-3))) | (cmem392[kConst436] < (gtid | p395))) : (((char)2) * (kConst412 | (threadIdx.z % tid)))));
v479 = ((p395 >> (threadIdx.z | c446)) + ((p395 != kConst444) + i452));
v479 = (-((2ull + ((signed char)0)) - (i452 + threadIdx.x)));
long long v481 = (blockDim.z & kConst414);
break;
}
case 7443209241460450383ull: {
long long v482 = ((unsigned char)((gmem393[12u] / ((unsigned short)26381)) + (12 * blockIdx.y)));
v482 ^= i452;
break;
}
default: {
long long v483 = (((unsigned long long)(7u ? ((long long)(cmem392[(gtid & 15)] * (tid * 1523628721))) : (6 || ((tid * ((unsigned short)2)) ? (-p395) : (i452 + ((short)(-7))))))) * ((unsigned long long)(blockIdx.z != (-2147483647 - 1))));
signed char v484 = ((((!threadIdx.x) | ((7 >> ((gc.p396 - c446) & 31)) << ((gmem394[(gc.p396 & 15)] * v483) & 31))) * ((-14ll) % (((i452 * blockDim.y) != gmem394[(v483 & 15)]) - v483))) & (cmem392[(gmem394[(5879931735614765215ull & 15)] & 15)] < (((i452 & v483) * (in[(gc.p396 & 511)] - ((unsigned short)gc.p396))) - ((((bool)((short)(-4))) ^ gc.p396) + c446))));
break;
}
}
unsigned short v485 = 0ull;
}
unsigned long long v486 = (((+(p395 ^ (kConst414 < ((signed char)15)))) % ((!(p395 + 2147483646)) + ((signed char)(-128)))) >> (tid & 31));
{
__shared__ unsigned long long block_sum;
__shared__ bool last_block;
const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
if (tid == 0) block_sum = 0;
__syncthreads();
atomicAdd(&block_sum, (unsigned long long)(((int)(~((((((short)(-1)) % v486) ? (kConst434 ? (-1369256440) : gtid) : gtid) >> (((((unsigned short)14) - ((unsigned short)60196)) * gtid) & 31)) ? (tid ^ ((gc.p396 | tid) <= (v397 >> (gtid & 31)))) : ((short)0))))));
__syncthreads();
if (tid == 0) {
kernel_1_partials1[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = block_sum;
__threadfence();
const unsigned int drawn = atomicInc(&kernel_1_ticket1, blocks - 1);
last_block = drawn == blocks - 1;
}
__syncthreads();
if (tid == 0 && last_block) {
unsigned long long total = 0;
for (unsigned int b = 0; b < blocks; ++b) total += ((volatile unsigned long long*)kernel_1_partials1)[b];
out[385u] = total;
}
}
if (((c446 < ((((char)(blockDim.z % ((unsigned short)65535))) | ((4294967295u * v486) - (gridDim.x ? kConst440 : c446))) % gmem394[(!(((short)51) + gridDim.y))])) * ((gc.p396 >> (((-(blockIdx.z + gc.p396)) + tid) & 63)) - gtid))) {
unsigned int v488 = (-6);
switch ((((1ll % 13ll) ? (((short)0) & kConst412) : p395) < ((gtid + v486) * (gtid & kConst477)))) {
case (-8): {
break;
}
case 1: {
v486 &= (((((v486 + c446) + (threadIdx.z && v397)) + (-((unsigned int)gc.p396))) + (((int)(tid + gtid)) != ((tid / blockDim.x) + v397))) ? ((long long)(blockDim.y << ((kConst430 + (v447 * c446)) & 31))) : gmem394[(((-(gc.p396 | gtid)) * cmem392[(v397 >= v397)]) & 15)]);
for (int i491 = 8; i491 < 30; i491 += 2) {
unsigned short v493 = (kConst492 ? (i491 ? (~((long long)v486)) : ((v486 ? v486 : 11410679909166486386ull) * (gc.p396 & blockDim.z))) : ((cmem392[blockIdx.y] % v488) + (((long long)i491) ? (i491 != p395) : gtid)));
v447 &= (kConst457 + ((((-2684285997013670121ll) ? 4294967294u : (-9223372036854775807ll - 1)) | i491) & ((~kConst429) * (blockIdx.x - blockIdx.z))));
v447 ^= ((short)(-15633));
v447 &= (i491 ^ ((short)(((p395 % true) ? ((int)1125371461u) : (((unsigned short)27918) == v488)) / v488)));
}
c446 %= gridDim.x;
if ((((signed char)(-128)) ^ ((+blockIdx.z) + (v488 - ((char)14))))) {
c446 ^= gmem394[(blockIdx.y || (((((unsigned short)6) - tid) ? (v486 ? 5918711909761378440ll : blockIdx.x) : (gtid <= v397)) % (!(0u != kConst412))))];
for (int i496 = 1; i496 < 22; i496 += 3) {
char v497 = ((unsigned short)65354);
long long v498 = (((unsigned short)0) < (cmem392[((-12ll) & 15)] || (((signed char)4) ? gc.p396 : gtid)));
c446 ^= gmem394[((in[((i496 ? v447 : i496) / gmem393[threadIdx.z])] ? (tid - ((~p395) | (-12283075402197029428ull))) : v486) & 15)];
}
switch (((long long)(((((((signed char)(-1)) % gridDim.z) >> ((-7) & 31)) | ((char)true)) - (((1ull >> (v488 & 63)) && (-c446)) + ((unsigned short)65535))) ^ ((+((-((unsigned short)34633)) + 9)) ? (((!blockIdx.y) / (gtid + 38258329510247985ull)) > (tid | (p395 & v447))) : ((((signed char)v488) >= v447) != c446))))) {
case 4294901762ll: {
int v499 = gtid;
int v500 = ((int)(((signed char)(v499 + v397)) && cmem392[((-v447) & 15)]));
v397 ^= 0;
v500 = ((short)1);
v397 += (((int)gc.p396) * (!v499));
break;
}
case (-2827620404462056468ll): {
break;
}
default: {
break;
}
}
unsigned int v501 = (((unsigned short)(((-((short)0)) - gtid) ^ ((gmem394[(2147483647 & 15)] >> (((-675442607) + p395) & 31)) <= (kConst465 ^ (v447 << ((signed char)1)))))) < (((((v488 > 5) - (v447 - c446)) - (v488 ^ ((signed char)((short)11)))) - threadIdx.z) / ((((tid % blockDim.y) | ((char)(-1))) + (-211529117)) - (+((short)(!((short)(-9))))))));
}
break;
}
default: {
for (int i502 = -4; i502 < 8; i502 += 1) {
unsigned int v504 = ((~((kConst477 % gc.p396) + (blockDim.z * (-7)))) >> ((v486 - ((c446 - c446) & (gc.p396 ? blockIdx.x : tid))) & 63));
v447 &= (((int)(!gtid)) * (((0ull ? kConst465 : ((tid | tid) * (-v397))) + ((((unsigned char)255) < (tid << (v504 & 31))) & ((-0ull) ? (!blockIdx.z) : gmem394[(((signed char)(-1)) & 15)]))) != ((unsigned int)((kConst457 * (9 / p395)) ? ((16u * v504) * (threadIdx.y ? blockDim.y : threadIdx.x)) : ((((unsigned char)1) && i502) - (c446 / gc.p396))))));
unsigned long long v506 = blockIdx.x;
}
v397 &= ((((v486 | gtid) > (tid * gtid)) ^ (kConst489 * (gtid / true))) & (((113731163 == v488) | (kConst408 * kConst436)) << ((bool)(~((unsigned char)0)))));
int v508 = ((p395 - (gtid ? (gtid ^ v447) : in[c446])) ? (((gc.p396 - 8ull) - (tid - c446)) < (gmem394[true] + (((short)(-1)) >> (v488 & 31)))) : ((int)(v447 + ((-2623109187843326426ll) ? gc.p396 : 2277942626u))));
break;
}
}
signed char v509 = cmem392[(((short)(gmem394[(v397 & 15)] ^ (gridDim.y - blockDim.y))) & ((gc.p396 * 18446744073709551615ull) <= (((-978880719) - gc.p396) - ((long long)v447))))];
v509 *= (((((short)32766) - tid) - ((long long)v486)) != ((p395 ^ 0) != blockDim.z));
} else {
}
for (int i513 = 1; i513 < 25; i513 += 2) {
}
short v529 = kConst412;
int v530 = (((-gtid) != ((char)21)) ^ in[(154847481 < gc.p396)]);
unsigned int v531 = ((4046477243u | c446) <= (cmem392[(3ull % (gc.p396 + gtid))] % ((!(p395 + 10790492398990834075ull)) ? v447 : gmem393[(kConst510 & 15)])));
out[gtid * 3u + 0u] = (((((unsigned long long)tid) ^ gc.p396) ^ ((unsigned long long)v447)) ^ ((unsigned long long)v530));
out[gtid * 3u + 1u] = (((((unsigned long long)gtid) ^ ((unsigned long long)v397)) ^ v486) ^ ((unsigned long long)v531));
out[gtid * 3u + 2u] = ((((unsigned long long)p395) ^ ((unsigned long long)c446)) ^ ((unsigned long long)v529));
}
static void run_kernel_1() {
const size_t words = 386;
unsigned long long* out = nullptr;
cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), "cudaMalloc");
static bool host_in[512];
bool* in = nullptr;
cudiff_check(cudaMalloc(&in, sizeof(host_in)), "cudaMalloc");
cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), "cudaMemcpy");
kernel_1<<<dim3(2, 1, 1), dim3(64, 1, 1), 0>>>(out, in, ((signed char)(-116)), kernel_1_constants{});
static unsigned long long host_out[386];
cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), "cudaMemcpy");
std::printf("checksum kernel_1 %016llx\n", cudiff_fold(host_out, words));
}
}
}
static void cudiff_print_layout() {
}
int main(int argc, char** argv) {
cudiff_test_1::run_kernel_1();
}
