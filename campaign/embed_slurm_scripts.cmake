# Writes OUTPUT, a header with the Slurm job scripts (scripts/slurm) as string constants, so
# that `cudiff slurm submit` needs nothing on a cluster but the cudiff binary.
# cmake -DCAMPAIGN=... -DMERGE=... -DOUTPUT=... -P embed_slurm_scripts.cmake
file(READ "${CAMPAIGN}" campaign)
file(READ "${MERGE}" merge)
foreach(script campaign merge)
  string(FIND "${${script}}" ")cudiff_script\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${script}.sbatch contains the raw string's end marker")
  endif()
endforeach()
file(WRITE "${OUTPUT}.new"
  "// Generated from scripts/slurm/*.sbatch by campaign/embed_slurm_scripts.cmake: do not edit.\n"
  "#pragma once\n\nnamespace cudiff::campaign::embedded {\n\n"
  "inline constexpr char campaign_sbatch[] = R\"cudiff_script(${campaign})cudiff_script\";\n\n"
  "inline constexpr char merge_sbatch[] = R\"cudiff_script(${merge})cudiff_script\";\n\n"
  "} // namespace cudiff::campaign::embedded\n")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
