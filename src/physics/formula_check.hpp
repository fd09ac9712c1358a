// Formulas of a case are checked when the case is read (docs/case-file.md, "Formulas"): their
// syntax by config::Expression, their values here, on the mesh, so that a field such as
// "1/(x - 0.5)" or "log(y)" that is not finite somewhere stops the run before step 1 with one line
// naming the file, the key, the formula and the point, instead of turning the run into NaN.
// Internal to the physics module.
#pragma once

#include <span>
#include <string>

#include "config/case.hpp"
#include "config/expression.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics {

// Collective: evaluates `e` (the formula of `key`) at this rank's `points` at time t; when it is
// not finite at some point of some rank, every rank throws the same InputError, naming the first
// such point of the lowest such rank.
void check_formula(const config::Case& c, const std::string& key, const config::Expression& e,
                   std::span<const Vec3> points, double t);

// The points where a boundary patch's formulas are evaluated: the nodes and the face centres of
// its faces on this rank.
std::vector<Vec3> patch_points(const topology::Mesh& m, int patch);

// Every node and face centre of this rank's mesh.
std::vector<Vec3> mesh_points(const topology::Mesh& m);

}  // namespace scfd::physics
