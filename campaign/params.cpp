// campaign: a campaign's parameters as the JSON kept in the database for --resume.
#include "campaign/params.h"

namespace cudiff::campaign {
namespace {

const boost::json::value& field(const boost::json::object& object, const char* name) {
  const auto* value = object.if_contains(name);
  if (!value) throw_environment(std::string("the stored campaign has no '") + name + "'; it cannot be resumed");
  return *value;
}

[[noreturn]] void damaged(const char* why) {
  throw_environment(std::string("the stored campaign parameters are damaged (") + why + "); it cannot be resumed");
}

} // namespace

boost::json::object fuzz_params_json(const FuzzParams& params) {
  boost::json::array configs;
  for (const std::string& config : params.configs) configs.push_back(boost::json::string(config));
  boost::json::object json{{"first_seed", params.first_seed},   {"batch", params.batch},
                           {"time_budget", params.time_budget}, {"size", generator::to_string(params.size)},
                           {"policy", params.policy},           {"configs", std::move(configs)},
                           {"reduce", params.reduce},           {"reduce_in_parallel", params.reduce_in_parallel},
                           {"elapsed", params.elapsed}};
  if (params.tests) json["tests"] = *params.tests;
  json["reduce_share"] = params.reduce_share;
  if (!params.pending_reductions.empty()) {
    boost::json::array pending;
    for (const std::string& key : params.pending_reductions) pending.push_back(boost::json::string(key));
    json["pending_reductions"] = std::move(pending);
  }
  if (!params.sanitizer_gate) json["sanitizer_gate"] = false;  // absent: on (older records too)
  if (params.variants > 0) json["variants"] = params.variants;  // absent: none (older records too)
  if (params.mode) json["mode"] = runners::to_string(*params.mode);
  if (!params.avoided.empty()) {
    boost::json::array avoided;
    for (const triage::AvoidRule& rule : params.avoided) avoided.push_back(triage::to_json(rule));
    json["avoided"] = std::move(avoided);
  }
  if (params.rediscover) json["rediscover"] = true;
  if (!params.name.empty()) json["name"] = params.name;
  if (params.shard.count > 1) json["shard"] = params.shard.text();
  return json;
}

// A function try block: the record is read back from a database, so a field of the wrong type
// (Boost.JSON's as_string/as_bool/value_to throw std::invalid_argument or system_error) or an
// unknown size or shard (parse_size's and parse_shard's usage errors) is a damaged record,
// which the contract reports as Error(environment) like a missing field.
FuzzParams fuzz_params_from_json(const boost::json::value& json) try {
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
  // Absent in older records: the default share, nothing pending.
  if (const auto* share = object.if_contains("reduce_share")) params.reduce_share = share->to_number<double>();
  if (const auto* pending = object.if_contains("pending_reductions"))
    for (const auto& key : pending->as_array()) params.pending_reductions.emplace_back(key.as_string());
  if (const auto* gate = object.if_contains("sanitizer_gate")) params.sanitizer_gate = gate->as_bool();
  if (const auto* variants = object.if_contains("variants"))
    params.variants = boost::json::value_to<std::uint64_t>(*variants);
  if (const auto* tests = object.if_contains("tests")) params.tests = boost::json::value_to<std::uint64_t>(*tests);
  if (const auto* mode = object.if_contains("mode")) {
    params.mode = runners::parse_mode(std::string(mode->as_string()));
    if (!params.mode) damaged("unknown mode");  // not "run with a GPU": that is an absent mode
  }
  if (const auto* avoided = object.if_contains("avoided"))  // absent: none (older records too)
    for (const auto& rule : avoided->as_array()) params.avoided.push_back(triage::avoid_rule_from_json(rule));
  if (const auto* rediscover = object.if_contains("rediscover")) params.rediscover = rediscover->as_bool();
  if (const auto* name = object.if_contains("name")) params.name = std::string(name->as_string());
  if (const auto* shard = object.if_contains("shard")) params.shard = parse_shard(std::string(shard->as_string()));
  return params;
} catch (const Error& error) {
  if (error.kind() == ErrorKind::environment) throw;
  damaged(error.what());
} catch (const std::invalid_argument& error) {
  damaged(error.what());
} catch (const boost::system::system_error& error) {
  damaged(error.what());
}

pipeline::CheckRequest campaign_check_request(const FuzzParams& params) {
  pipeline::CheckRequest request;
  request.mode = params.mode;
  request.configs = runners::parse_configs(join(params.configs, ","));
  request.compile_limits = pipeline::limits(pipeline::kProgramCompileSeconds);
  request.run_limits = pipeline::limits(pipeline::kRunSeconds);
  return request;
}

} // namespace cudiff::campaign
