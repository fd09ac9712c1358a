#!/usr/bin/env bash
# The 3D lid-driven cavity (Re 100, lid y = 1 moving in +x at speed 1, nu = 0.01) with OpenFOAM's
# icoFoam on a Gmsh mesh of meshes/cavity3d.geo: the peer that streamcfd's 3D results and times
# are compared with (docs/methods.md, "3D on tetrahedral meshes"). Needs Debian's openfoam
# (v1912) and gmsh: `apt-get install --no-install-recommends openfoam gmsh`.
#
#   scripts/peer/icofoam_cavity3d.sh DIR H DT [END]
#
# makes DIR (an OpenFOAM case), meshes the cavity with size H (0.046: 49,374 tets; 0.025:
# 289,427), converts it (gmshToFoam, renumberMesh), or with H = hexN makes a uniform N × N × N
# hexahedral mesh (blockMesh; the fine reference of docs/methods.md is hex96 with DT 0.005208),
# and runs icoFoam with time step DT to END
# (default 10): PISO with 2 correctors and 1 non-orthogonal corrector, linear / corrected schemes,
# p by DIC-PCG to 1e-6, U by symmetric Gauss-Seidel to 1e-5. Writes every unit of time, the
# velocity sampled on x = z = 0.5 (101 points, cellPoint interpolation) at each write, and the
# cell centres; log in DIR/log.icoFoam (its ExecutionTime lines give the time per step).
#
# Environment: NP=N runs icoFoam on N MPI ranks (decomposePar in blocks, then reconstructPar);
# MESH_ONLY=1 stops after the mesh conversion (and decomposition), so that the case can be copied
# to a machine without gmsh and run there with the same command (a DIR that already has
# constant/polyMesh is not meshed again).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,21p' "$0"; exit 2; }
np=${NP:-1}
dir=$1 h=$2 dt=$3 end=${4:-10}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/scripts/peer/openfoam.sh"
mkdir -p "$dir/system" "$dir/constant" "$dir/0"
cd "$dir"

foam_control "$end" "$dt" 1 '    centreline
    {
        type sets;
        libs (sampling);
        writeControl writeTime;
        interpolationScheme cellPoint;
        setFormat raw;
        fields (U);
        sets
        (
            vertical { type uniform; axis y; start (0.5 0 0.5); end (0.5 1 0.5); nPoints 101; }
        );
    }'
foam_numerics 0.01 1e-06 1e-05 'pRefCell 0; pRefValue 0;'
{ foam_header volVectorField U; cat <<'EOF2'
dimensions [0 1 -1 0 0 0 0];
internalField uniform (0 0 0);
boundaryField
{
    lid { type fixedValue; value uniform (1 0 0); }
    walls { type noSlip; }
}
EOF2
} > 0/U
{ foam_header volScalarField p; cat <<'EOF2'
dimensions [0 2 -2 0 0 0 0];
internalField uniform 0;
boundaryField
{
    lid { type zeroGradient; }
    walls { type zeroGradient; }
}
EOF2
} > 0/p

# Debian's gmsh has no Netgen optimiser: it says so as an error, still writes the mesh (the same
# file as streamcfd's scripts get), and exits non-zero.
# -nt 1: one meshing thread gives the same file on every run (the md5s of docs/bench).
if [[ $h =~ ^hex([0-9]+)$ ]]; then
  [ -s constant/polyMesh/owner ] || {
    n=${BASH_REMATCH[1]}
    { foam_header dictionary blockMeshDict; cat <<EOF2
vertices ((0 0 0) (1 0 0) (1 1 0) (0 1 0) (0 0 1) (1 0 1) (1 1 1) (0 1 1));
blocks (hex (0 1 2 3 4 5 6 7) ($n $n $n) simpleGrading (1 1 1));
boundary
(
    lid { type wall; faces ((3 7 6 2)); }
    walls { type wall; faces ((0 4 7 3) (2 6 5 1) (1 5 4 0) (0 3 2 1) (4 5 6 7)); }
);
EOF2
    } > system/blockMeshDict
    blockMesh > log.blockMesh
  }
elif [ ! -s constant/polyMesh/owner ]; then
  gmsh "$root/meshes/cavity3d.geo" -setnumber h "$h" -3 -nt 1 -format msh22 -o cavity3d.msh \
    > log.gmsh || true
  [ -s cavity3d.msh ] || { echo "gmsh wrote no mesh: see $dir/log.gmsh" >&2; exit 1; }
  foam_mesh cavity3d.msh lid walls
fi
if [ "$np" -gt 1 ] && [ ! -d processor0 ]; then
  # Debian's OpenFOAM has no scotch: blocks of a px × py × 1 grid, px py = NP, px ≥ py.
  py=1
  for ((k = 1; k * k <= np; k++)); do ((np % k)) || py=$k; done
  { foam_header dictionary decomposeParDict
    printf 'numberOfSubdomains %d;\nmethod simple;\ncoeffs { n (%d %d 1); }\n' "$np" $((np / py)) "$py"
  } > system/decomposeParDict
  decomposePar > log.decomposePar
fi
[ -z "${MESH_ONLY:-}" ] || exit 0
if [ "$np" -gt 1 ]; then
  mpirun --bind-to none -np "$np" icoFoam -parallel > log.icoFoam
  reconstructPar > log.reconstructPar
else
  icoFoam > log.icoFoam
fi
postProcess -func writeCellCentres -latestTime > log.writeCellCentres
echo "icoFoam: $(grep -c '^Time =' log.icoFoam) steps, $(grep ExecutionTime log.icoFoam | tail -1)"
