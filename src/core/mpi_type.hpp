// The MPI datatype of the C++ types the project sends (`real` values, `index` ids, 64-bit global
// ids), so one template posts the messages of every halo exchange and collective.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scfd {

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
template <>
inline MPI_Datatype mpi_type<std::uint64_t>() {
  return MPI_UINT64_T;
}

}  // namespace scfd
