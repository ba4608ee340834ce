// Host code that only the host compiler warns about (with -Xcompiler -Wall,-Wextra).
int main(int argc, char**) {
  unsigned limit = 3;
  int result = 0;
  if (argc < limit) result = 1;
  return result;
}
