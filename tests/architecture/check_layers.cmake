# The layering of docs/architecture.md, checked on every source file (ctest -L unit):
#  1. src/<module> includes only headers of the modules its row below allows (itself included):
#     the module map of the architecture, so a forbidden dependency fails the tests, not a review.
#  2. physics and app never include backend/cpu or backend/opengl: they reach every backend through
#     the Backend interface (backend/backend.hpp, backend/registry.hpp, backend/traffic.hpp).
#     Among the tests, only tests/gl (what is GL-specific) includes backend/opengl: the rest,
#     tests/conformance above all, reach the GL backend through the table of backends.
#  3. Only src/gl includes EGL/GL headers, only src/output VTK, only src/partition METIS, only
#     src/config toml++.
#  4. Collectives (MPI_Allreduce, MPI_Bcast, MPI_Allgather, MPI_Alltoall, MPI_Barrier, ...) are
#     called only in core/collectives.cpp, the halo (its plans' set-up) and the partitioner (the
#     mesh's distribution): everything else calls core/collectives.hpp.
#  5. No source file of src/backend or src/gl is over 600 lines (the backend contract's limit;
#     scripts/tidy.sh holds their functions to 80 lines).
#  6. No file of the repository points outside it (the design notes it grew from are not part of
#     it: docs/ holds what a maintainer needs).
# Run: cmake -DSOURCE_DIR=<repository> -P check_layers.cmake
cmake_minimum_required(VERSION 3.25)

set(allowed_core core)
set(allowed_config core config)
set(allowed_mesh_io core mesh_io)
set(allowed_topology core mesh_io topology)
set(allowed_partition core mesh_io topology partition)
set(allowed_gl core gl)
set(allowed_backend core mesh_io topology gl backend)
set(allowed_halo core mesh_io topology backend halo)
set(allowed_solvers core mesh_io topology backend halo solvers)
set(allowed_physics core config mesh_io topology backend halo solvers physics)
set(allowed_h5 core h5)
set(allowed_output core mesh_io topology h5 output)
set(allowed_checkpoint core config mesh_io topology backend halo solvers physics h5 output checkpoint)
set(allowed_app core config mesh_io topology partition gl backend halo solvers physics h5 output checkpoint app)
set(modules core config mesh_io topology partition gl backend halo solvers physics h5 output checkpoint app)

set(problems "")
foreach(module IN LISTS modules)
  file(GLOB_RECURSE files "${SOURCE_DIR}/src/${module}/*.cpp" "${SOURCE_DIR}/src/${module}/*.hpp")
  foreach(file IN LISTS files)
    file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
    file(STRINGS "${file}" includes REGEX "^#include [<\"]")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include [<\"]([^>\"]+)[>\"].*" "\\1" header "${line}")
      if(line MATCHES "^#include \"")
        string(REGEX REPLACE "/.*" "" target "${header}")
        if(NOT target IN_LIST allowed_${module})
          string(REPLACE ";" ", " allowed "${allowed_${module}}")
          list(APPEND problems "${rel}: includes ${header}: ${module} may include only ${allowed}")
        endif()
        if(module MATCHES "^(physics|app)$" AND header MATCHES "^backend/(cpu|opengl)/")
          list(APPEND problems "${rel}: includes ${header}: ${module} reaches the backends only through the Backend interface")
        endif()
      else()
        if(header MATCHES "^(EGL|GL|epoxy)/" AND NOT module STREQUAL "gl")
          list(APPEND problems "${rel}: includes <${header}>: only src/gl touches EGL and GL")
        elseif(header MATCHES "^vtk" AND NOT module STREQUAL "output")
          list(APPEND problems "${rel}: includes <${header}>: VTK is private to src/output")
        elseif(header STREQUAL "metis.h" AND NOT module STREQUAL "partition")
          list(APPEND problems "${rel}: includes <${header}>: METIS is private to src/partition")
        elseif(header MATCHES "^(hdf5|H5)" AND NOT module STREQUAL "h5")
          list(APPEND problems "${rel}: includes <${header}>: HDF5 is private to src/h5")
        elseif(header MATCHES "^toml" AND NOT module STREQUAL "config")
          list(APPEND problems "${rel}: includes <${header}>: toml++ is private to src/config")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

# 2b. Tests reach the GL backend through the table, but for tests/gl.
file(GLOB_RECURSE test_files "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp")
foreach(file IN LISTS test_files)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  if(rel MATCHES "^tests/gl/")
    continue()
  endif()
  file(STRINGS "${file}" hits REGEX "^#include \"backend/opengl/")
  foreach(hit IN LISTS hits)
    list(APPEND problems "${rel}: ${hit}: only tests/gl includes the GL backend's headers")
  endforeach()
endforeach()

# 4. One home for collectives.
file(GLOB_RECURSE sources "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp")
foreach(file IN LISTS sources)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  if(rel MATCHES "^src/(core/collectives\\.cpp|halo/|partition/)")
    continue()
  endif()
  file(STRINGS "${file}" hits REGEX "^[^/]*MPI_(All[a-z]*|Bcast|Barrier|Reduce|Gather|Scatter|Scan|Exscan)\\(")
  foreach(hit IN LISTS hits)
    string(STRIP "${hit}" hit)
    list(APPEND problems "${rel}: calls an MPI collective; use core/collectives.hpp: ${hit}")
  endforeach()
endforeach()

# 5. File sizes where the limit is hard.
file(GLOB_RECURSE limited "${SOURCE_DIR}/src/backend/*.[ch]pp" "${SOURCE_DIR}/src/gl/*.[ch]pp")
foreach(file IN LISTS limited)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  file(READ "${file}" text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines count)
  if(count GREATER 600)
    list(APPEND problems "${rel}: ${count} lines, over the 600 of src/backend and src/gl")
  endif()
endforeach()

# 6. References to files outside the repository (spelled in pieces so this file passes itself).
set(outside_notes "DESIGN" "\\.md")
string(CONCAT outside_pattern "(" ${outside_notes} "|\\.\\./shared)")
file(GLOB_RECURSE all_files "${SOURCE_DIR}/*")
foreach(file IN LISTS all_files)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  if(rel MATCHES "^(build|\\.git)/" OR NOT rel MATCHES "\\.(cpp|hpp|glsl|md|txt|cmake|sh|py|toml|geo)$|^\\.ci/")
    continue()
  endif()
  file(STRINGS "${file}" hits REGEX "${outside_pattern}")
  foreach(hit IN LISTS hits)
    string(STRIP "${hit}" hit)
    list(APPEND problems "${rel}: refers to a file outside the repository: ${hit}")
  endforeach()
endforeach()

list(LENGTH problems count)
if(count GREATER 0)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "${count} layering problem(s):\n${text}")
endif()
message(STATUS "layering: every include of src/ is allowed; collectives in one home; backend and gl files under 600 lines; nothing refers outside the repository")
