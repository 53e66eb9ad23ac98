# Embeds maps/reference.json into tickwire_world (generated/reference_map_text.cpp, exposing
# world::reference_map_text()). Sets TICKWIRE_REFERENCE_MAP_SOURCE.
include(${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake)
tw_embed_text(${PROJECT_SOURCE_DIR}/maps/reference.json tickwire/world/reference_map.h tickwire::world
              reference_map_text TICKWIRE_REFERENCE_MAP_SOURCE)
