// A bot's figures as JSON for `tickwire bot`'s final line: its client's stats (the link, the
// snapshots, prediction, interpolation, a reliable block), and the tallies of its `use` and `fire`
// behaviours, per bot and summed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot.h"
#include "tickwire/world/bot_brain.h"

namespace tickwire::cli {

nlohmann::json fire_json(const world::BotFireTally& tally);
// The server's answers to a bot's uses: taken, unhandled, refused by reason.
nlohmann::json uses_json(const world::BotUseTally& uses);
// One bot's line (`id`: its client id); a bot never given a seat says only that.
nlohmann::json bot_line(const Bot& bot, uint64_t id, double elapsed_s);
// The compact per-interval line of `tickwire bot --series` (what `tickwire demo --html` plots):
// {"type":"bots_series","t":T,"fields":[...],"clients":[[...],...]}, one row per seated bot in
// client id order, its counters cumulative (bytes, corrections, held frames) and its readings
// current (RTT, the server's input-queue depth for it as its clock regulator smooths it; null
// before the first). A bot's row (nullopt: it has no seat), and the line of the rows.
std::optional<nlohmann::json> series_row(const Bot& bot, uint64_t id);
nlohmann::json series_line_of(std::vector<nlohmann::json> rows, double at_s);

}  // namespace tickwire::cli
