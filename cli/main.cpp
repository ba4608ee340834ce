// The cudiff executable: hands its arguments to run_cli.
#include "cli/cli.h"

#include <iostream>

int main(int argc, char** argv) {
  return cudiff::cli::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
