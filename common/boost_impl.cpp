// The one translation unit that compiles Boost.Process v2 and Boost.JSON (header-only libraries
// in separate-compilation mode), so no Boost shared library is needed at run time.
#include <boost/json/src.hpp>
#include <boost/process/v2/src.hpp>
