# Shared pieces of the icoFoam peer scripts (sourced, not run): the case dictionaries they have in
# common and the conversion of a Gmsh mesh. Debian's OpenFOAM (v1912) binaries find their etc/
# files through WM_PROJECT_DIR. Every function writes into the current directory, the case.
export WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam}

# foam_header CLASS OBJECT: the FoamFile header of a dictionary.
foam_header() {
  printf 'FoamFile\n{\n    version 2.0;\n    format ascii;\n    class %s;\n    object %s;\n}\n' "$1" "$2"
}

# foam_control END DT WRITE FUNCTIONS: system/controlDict of an icoFoam run from 0 to END with
# time step DT, fields written every WRITE units of time (ASCII, 10 digits), and FUNCTIONS the
# body of its `functions` dictionary.
foam_control() {
  mkdir -p system
  { foam_header dictionary controlDict; cat <<EOF2
application icoFoam;
startFrom startTime;
startTime 0;
stopAt endTime;
endTime $1;
deltaT $2;
writeControl runTime;
writeInterval $3;
purgeWrite 0;
writeFormat ascii;
writePrecision 10;
writeCompression off;
timeFormat general;
timePrecision 6;
runTimeModifiable false;
functions
{
$4
}
EOF2
  } > system/controlDict
}

# foam_numerics NU P_TOL U_TOL [PISO_EXTRA]: system/fvSchemes (Euler, linear / corrected),
# system/fvSolution (p by DIC-PCG to P_TOL, U by symmetric Gauss-Seidel to U_TOL; PISO with 2
# correctors, 1 non-orthogonal corrector and PISO_EXTRA) and constant/transportProperties (nu).
foam_numerics() {
  mkdir -p system constant
  { foam_header dictionary fvSchemes; cat <<'EOF2'
ddtSchemes { default Euler; }
gradSchemes { default Gauss linear; }
divSchemes { default none; div(phi,U) Gauss linear; }
laplacianSchemes { default Gauss linear corrected; }
interpolationSchemes { default linear; }
snGradSchemes { default corrected; }
EOF2
  } > system/fvSchemes
  { foam_header dictionary fvSolution; cat <<EOF2
solvers
{
    p { solver PCG; preconditioner DIC; tolerance $2; relTol 0.05; }
    pFinal { solver PCG; preconditioner DIC; tolerance $2; relTol 0; }
    U { solver smoothSolver; smoother symGaussSeidel; tolerance $3; relTol 0; }
}
PISO { nCorrectors 2; nNonOrthogonalCorrectors 1;${4:+ $4} }
EOF2
  } > system/fvSolution
  { foam_header dictionary transportProperties; echo "nu [0 2 -1 0 0 0 0] $1;"; } \
    > constant/transportProperties
}

# foam_mesh MESH PATCH...: constant/polyMesh from the Gmsh file MESH, the named patches made
# walls (gmshToFoam makes every patch a generic `patch`), renumbered; checkMesh's report in
# log.checkMesh.
foam_mesh() {
  local mesh=$1 patch
  shift
  gmshToFoam "$mesh" > log.gmshToFoam
  for patch in "$@"; do
    sed -i "/^ *$patch\$/,/}/s/\\(^ *type *\\)patch;/\\1wall;/" constant/polyMesh/boundary
  done
  renumberMesh -overwrite > log.renumberMesh
  checkMesh > log.checkMesh || true
}
