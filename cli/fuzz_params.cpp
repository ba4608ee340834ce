// fuzz_params: a campaign's parameters as the JSON kept in the database for --resume.
#include "cli/fuzz.h"

namespace cudiff::cli {
namespace {

const boost::json::value& field(const boost::json::object& object, const char* name) {
  const auto* value = object.if_contains(name);
  if (!value) throw_environment(std::string("the stored campaign has no '") + name + "'; it cannot be resumed");
  return *value;
}

} // namespace

boost::json::object fuzz_params_json(const FuzzParams& params) {
  boost::json::array configs;
  for (const std::string& config : params.configs) configs.push_back(boost::json::string(config));
  boost::json::object json{{"first_seed", params.first_seed},
                           {"batch", params.batch},
                           {"time_budget", params.time_budget},
                           {"size", generator::to_string(params.size)},
                           {"policy", params.policy},
                           {"configs", std::move(configs)},
                           {"reduce", params.reduce},
                           {"reduce_in_parallel", params.reduce_in_parallel},
                           {"elapsed", params.elapsed}};
  if (params.tests) json["tests"] = *params.tests;
  if (params.mode) json["mode"] = runners::to_string(*params.mode);
  return json;
}

FuzzParams fuzz_params_from_json(const boost::json::value& json) {
  if (!json.is_object()) throw_environment("the stored campaign parameters are not a JSON object");
  const auto& object = json.as_object();
  FuzzParams params;
  params.first_seed = boost::json::value_to<std::uint64_t>(field(object, "first_seed"));
  params.batch = boost::json::value_to<std::uint64_t>(field(object, "batch"));
  params.time_budget = field(object, "time_budget").to_number<double>();
  params.size = generator::parse_size(std::string(field(object, "size").as_string()));
  params.policy = std::string(field(object, "policy").as_string());
  for (const auto& config : field(object, "configs").as_array()) params.configs.emplace_back(config.as_string());
  params.reduce = field(object, "reduce").as_bool();
  if (const auto* parallel = object.if_contains("reduce_in_parallel")) params.reduce_in_parallel = parallel->as_bool();
  params.elapsed = field(object, "elapsed").to_number<double>();
  if (const auto* tests = object.if_contains("tests")) params.tests = boost::json::value_to<std::uint64_t>(*tests);
  if (const auto* mode = object.if_contains("mode")) params.mode = runners::parse_mode(std::string(mode->as_string()));
  return params;
}

} // namespace cudiff::cli
