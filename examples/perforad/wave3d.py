# The wave equation script of Hückelheim et al., "Automatic Differentiation
# for Adjoint Stencil Loops" (ICPP 2019), Figure 4, with its import line
# changed: it prints the stencil dialect of the primal and of the adjoint
# (docs/Python.md, "PerforAD scripts").
import sympy as sp
from stencilad.perforad import *
######## 3D Wave Equation Example ########
# Define symbols
c = sp.Function("c")
u_1 = sp.Function("u_1"); u_1_b = sp.Function("u_1_b")
u_2 = sp.Function("u_2"); u_2_b = sp.Function("u_2_b")
u = sp.Function("u")    ; u_b = sp.Function("u_b")
i,j,k,C,D,n = sp.symbols("i,j,k,C,D,n")
# Build stencil expression
u_xx = u_1(i-1,j,k) - 2*u_1(i,j,k) + u_1(i+1,j,k)
u_yy = u_1(i,j-1,k) - 2*u_1(i,j,k) + u_1(i,j+1,k)
u_zz = u_1(i,j,k-1) - 2*u_1(i,j,k) + u_1(i,j,k+1)
expr = 2.0*u_1(i,j,k) - u_2(i,j,k) + c(i,j,k)*D*(u_xx+u_yy+u_zz)
# Build LoopNest object for this expression
lp = makeLoopNest(lhs=u(i,j,k), rhs=expr, counters = [i,j,k],
                  bounds={i:[1,n-2],j:[1,n-2],k:[1,n-2]})
# Output primal and adjoint files
printfunction(name="wave3d", loopnestlist=[lp])
printfunction(name="wave3d_perf_b",
              loopnestlist=lp.diff({u:u_b, u_1:u_1_b, u_2: u_2_b}))
