package example;

import java.util.Arrays;
import org.ccl4j.*;
import org.ccl4j.physics.*;

public class Percolation {
    public static void main(String[] args) {
        try (Lattice lattice = Lattice.withSites(LatticeKind.HONEYCOMB, 1 << 16, false, 0);
             BondPercolation run = BondPercolation.create(lattice, Backend.AUTO, Algorithm.KOMURA)) {
            BondPercolation.Result r = run.run(0.6527, 1, 0, 100);           // p, seed, first realisation, count
            System.out.printf("R = %.3f +- %.3f, %.3f ms per realisation%n",
                    r.probability(), r.error(), r.totalMs() / r.realisations());
        }
        try (Lattice lattice = Lattice.create(LatticeKind.SQUARE, 64, true, 0);
             SwendsenWang chain = SwendsenWang.create(lattice, Backend.AUTO, Algorithm.KOMURA, 1)) {
            SwendsenWang.Sweeps s = chain.sweep(2.269, 200);                // magnetisation, energy per sweep
            System.out.printf("<|m|> = %.3f at T = 2.269%n",
                    Arrays.stream(s.magnetisation()).map(Math::abs).average().orElseThrow());
        }
    }
}
