/* The C loops of test/Import/C/delinearize/, compiled by clang as the
 * reference for their imported and compiled versions (renamed: the compiled
 * module defines the original names). */
#define heat heat_ref
#define halo halo_ref
#define fixed fixed_ref
#define refine refine_ref
#define transpose transpose_ref
#define flat flat_ref
#include "heat3d.c"
#include "layouts.c"
