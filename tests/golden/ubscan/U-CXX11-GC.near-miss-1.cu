// expect: none
#include <memory>
void keep(int* p) { std::declare_reachable(p); }

