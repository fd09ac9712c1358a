#!/usr/bin/env bash
# DFG benchmark 3D-1Z (steady Re 20, a cylinder spanning a square channel; cases/cylinder3d)
# with OpenFOAM's icoFoam on the same Gmsh mesh file streamcfd runs: the peer of the DFG 3D-1Z
# drag in docs/methods.md. Needs Debian's openfoam (v1912) and python3:
# `apt-get install --no-install-recommends openfoam`.
#
#   scripts/peer/icofoam_cylinder3d.sh DIR MESH DT [END]
#
# makes DIR (an OpenFOAM case) from MESH (a Gmsh file of meshes/channel3d-cylinder.geo, any
# format gmshToFoam reads: `gmsh meshes/channel3d-cylinder.geo -setnumber h 0.03 -3 -format
# msh22`), and runs icoFoam with time step DT to END (default 4): PISO with 2 correctors and 1
# non-orthogonal corrector, linear / corrected schemes, p by DIC-PCG to 1e-7, U by symmetric
# Gauss-Seidel to 1e-7; the inflow profile of the case file at the inlet faces' centres. Writes
# c_D and c_L every step (forceCoeffs: U = 0.2, D = 0.1, H = 0.41, so A = 0.041) and the
# pressure at the case's probes (0.45, 0.2, 0.205) and (0.55, 0.2, 0.205); prints the last values
# and Δp. Log in DIR/log.icoFoam (its ExecutionTime lines give the time per step).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,16p' "$0"; exit 2; }
dir=$1 mesh=$(realpath "$2") dt=$3 end=${4:-4}
. "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/openfoam.sh"
mkdir -p "$dir/system" "$dir/constant" "$dir/0"
cd "$dir"

foam_control "$end" "$dt" "$end" '    coefficients
    {
        type forceCoeffs;
        libs (forces);
        patches (cylinder);
        rho rhoInf;
        rhoInf 1;
        CofR (0.5 0.2 0.205);
        liftDir (0 1 0);
        dragDir (1 0 0);
        pitchAxis (0 0 1);
        magUInf 0.2;
        lRef 0.1;
        Aref 0.041;
        writeControl timeStep;
        writeInterval 1;
    }
    probes
    {
        type probes;
        libs (sampling);
        fields (p);
        probeLocations ((0.45 0.2 0.205) (0.55 0.2 0.205));
        writeControl timeStep;
        writeInterval 1;
    }'
foam_numerics 0.001 1e-07 1e-07
foam_mesh "$mesh" walls cylinder
# The inlet profile at the inlet faces' centres (from writeCellCentres' boundary values).
postProcess -func writeCellCentres -time 0 > log.writeCellCentres
inlet=$(python3 - <<'EOF2'
import re
text = open("0/C").read()
block = text[text.index("inlet"):]
body = block[block.index("("):]
pts = re.findall(r"\(([-0-9.eE+]+) ([-0-9.eE+]+) ([-0-9.eE+]+)\)", body[:body.index(";")])
H = 0.41
vals = [16 * 0.45 * y * z * (H - y) * (H - z) / H**4 for _, y, z in ((float(a), float(b), float(c)) for a, b, c in pts)]
print(f"nonuniform List<vector> {len(vals)} (" + " ".join(f"({v:.10g} 0 0)" for v in vals) + ")")
EOF2
)
rm -f 0/C 0/Cx 0/Cy 0/Cz 0/V
{ foam_header volVectorField U; cat <<EOF2
dimensions [0 1 -1 0 0 0 0];
internalField uniform (0 0 0);
boundaryField
{
    inlet { type fixedValue; value $inlet; }
    outlet { type zeroGradient; }
    walls { type noSlip; }
    cylinder { type noSlip; }
}
EOF2
} > 0/U
{ foam_header volScalarField p; cat <<'EOF2'
dimensions [0 2 -2 0 0 0 0];
internalField uniform 0;
boundaryField
{
    inlet { type zeroGradient; }
    outlet { type fixedValue; value uniform 0; }
    walls { type zeroGradient; }
    cylinder { type zeroGradient; }
}
EOF2
} > 0/p
icoFoam > log.icoFoam
coeffs=$(find postProcessing/coefficients -name 'coefficient*.dat' -o -name 'forceCoeffs*.dat' | head -1)
probes=$(find postProcessing/probes -name p | head -1)
python3 - "$coeffs" "$probes" <<'EOF2'
import sys
def rows(path):
    return [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
head = [l for l in open(sys.argv[1]) if l.startswith("#")][-1].lstrip("#").split()
last = dict(zip(head, rows(sys.argv[1])[-1]))
p = rows(sys.argv[2])[-1]
print(f"icoFoam at t = {last['Time']}: c_D {float(last['Cd']):.4f}  c_L {float(last['Cl']):.5f}  "
      f"dp {float(p[1]) - float(p[2]):.5f}")
EOF2
echo "icoFoam: $(grep -c '^Time =' log.icoFoam) steps, $(grep ExecutionTime log.icoFoam | tail -1)"
