# The Burgers equation script of Hückelheim et al., "Automatic
# Differentiation for Adjoint Stencil Loops" (ICPP 2019), Figure 6, with its
# import line changed. The figure leaves out the definitions of the symbols;
# they are written here as the wave equation script (Figure 4) has them.
import sympy as sp
from stencilad.perforad import *
u_1 = sp.Function("u_1"); u_1_b = sp.Function("u_1_b")
u = sp.Function("u")    ; u_b = sp.Function("u_b")
i,C,D,n = sp.symbols("i,C,D,n")
######## 1D Burgers Equation Example ########
# Build stencil expression
ap = sp.functions.Max(u_1(i),0)
am = sp.functions.Min(u_1(i),0)
uxm = u_1(i)-u_1(i-1)
uxp = u_1(i+1)-u_1(i)
ux = ap*uxm+am*uxp
expr = u_1(i) - C * ux + D * (u_1(i+1) + u_1(i-1) - 2.0*u_1(i))
# Build LoopNest object for this expression
lp = makeLoopNest(lhs=u(i), rhs=expr, counters = [i],
                  bounds={i:[1,n-2]})
# Output primal and adjoint files
printfunction(name="burgers1d", loopnestlist=[lp])
printfunction(name="burgers1d_perf_b",
              loopnestlist=lp.diff({u:u_b, u_1:u_1_b}))
