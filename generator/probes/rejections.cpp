// rejections: which compilers reject a generated program on purpose — by a construct it uses
// (kConstructsRejectedByACompiler) or a planted probe the rules catalog says clang rejects. A
// campaign checks such programs alone (docs/campaign.md, "Batches").
#include "generator/generator.h"

namespace cudiff::generator {
namespace {

void add_rejecting(const Sidecar& sidecar, std::set<std::string>& compilers) {
  if (sidecar.constructs_used)
    for (const Sidecar::Construct& used : *sidecar.constructs_used)
      for (const RejectedConstruct& rejected : kConstructsRejectedByACompiler)
        if (rejected.construct == used.name) compilers.insert(std::string(rejected.compiler));
  if (sidecar.probes)
    for (const Sidecar::Probe& probe : *sidecar.probes)
      if (const rules::Rule* rule = rules::find_rule(probe.rule); rule && rule->probe) {
        if (!rule->probe->clang_rejects.empty()) compilers.insert("clang");
        if (!rule->probe->nvcc_rejects.empty()) compilers.insert("nvcc");
      }
  if (sidecar.batch)
    for (const Sidecar& test : sidecar.batch->tests) add_rejecting(test, compilers);
}

} // namespace

std::set<std::string> rejecting_compilers(const Sidecar& sidecar) {
  std::set<std::string> compilers;
  add_rejecting(sidecar, compilers);
  return compilers;
}

} // namespace cudiff::generator
