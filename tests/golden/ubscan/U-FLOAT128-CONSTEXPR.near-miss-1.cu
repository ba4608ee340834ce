// expect: none
__float128 third = 1.0Q / 3;
constexpr double third_double = 1.0 / 3;

