// The MPI datatype of the C++ types a halo carries (`real` values, `index` ids), so one template
// posts the messages of every exchange. Private to src/halo.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scfd::halo::detail {

template <typename T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_type<std::int32_t>() {
  return MPI_INT32_T;
}
template <>
inline MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}

}  // namespace scfd::halo::detail
