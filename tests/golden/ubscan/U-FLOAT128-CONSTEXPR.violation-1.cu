// expect: U-FLOAT128-CONSTEXPR
constexpr __float128 third = 1.0Q / 3;  // <-

