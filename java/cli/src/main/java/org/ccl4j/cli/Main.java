package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;

import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;

/**
 * The {@code ccl4j} command line.
 *
 * <p>Exit codes: 0 success; 1 a native failure; 2 a usage error; 3 invalid input (the message
 * names the file, the line or byte offset and the problem); 4 the backend is unavailable.
 */
public final class Main {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    static final int INVALID_INPUT = 3;
    static final int BACKEND_UNAVAILABLE = 4;

    static final String USAGE_TEXT = """
            usage: ccl4j <command> [options]

            commands:
              label FILE   label the connected components of a graph
                  --format auto|egr|mtx|snap|dimacs|edges   input format (default: auto, by extension and content)
                  --backend auto|cuda|cpu|cpu-serial|java   where to run (default: auto = cuda if present, else cpu)
                  --algorithm auto|ecl|hawick-edge|hawick-vertex|hawick-bfs|komura|cpu-reference|union-find
                  --device N        CUDA device index (default 0)
                  --threads N       CPU threads (default: all cores)
                  --keep-ids        keep SNAP vertex ids as they are instead of renumbering them
                  --check           check the graph (monotone offsets, ids in range, symmetry) before labelling
                  --out FILE        write the labels: text ("vertex label" lines) when FILE ends in .txt or .tsv,
                                    otherwise raw little-endian int32, one per vertex
                  --compact         write compacted labels with --out: 0..k-1 by smallest member
                  --stats           add component statistics: sizes (min, max, mean, median), the size
                                    histogram (exact and in powers of two) and the 10 largest components
                  --top K           list the K largest components (implies --stats)
                  --json            print one JSON object instead of text
              mesh FILE    label the clusters of a 2D or 3D grid: an image (PGM, PNG) or a raw volume
              mesh --generate SPEC   the same for a generated field:
                  spiral:N | percolation:WxH[xD]:p:seed | alloy:N:steps:seed | alloy:WxH[xD]:steps:seed
                  --format auto|pgm|png|raw  input format (default: auto, by content and extension)
                  --dims WxH[xD]    dimensions of a raw file (required for raw)
                  --type u8|i32     cell type of a raw file: uint8 or little-endian int32 (default u8)
                  --threshold T     label cells whose value is at least T (grey value, luminance or raw cell)
                  --color luminance|rgb   colour PNGs: BT.601 luminance (default) or 0xRRGGBB per cell
                  --mode foreground|same-value   non-zero cells (default), or neighbours of equal value
                  --connectivity 4|8|6|26   neighbours (default: faces, 4 in 2D and 6 in 3D)
                  --periodic        wrap-around boundaries on every axis (default: open)
                  --periodic-axes AXES   wrap-around on some axes only, e.g. xy
                  --algorithm auto|neighbour|local|directional|equivalence|komura|union-find|
                              cpu-raster|cpu-equivalence|cpu-parallel|java
                  --backend, --device N, --threads N   as for label
                  --region X,Y[,Z]:WxH[xD]   label only this region of the grid (a view, not a copy)
                  --save FILE       write the grid (.pgm, .png, else raw) before labelling it
                  --png FILE        write the labels as a colour picture (a volume: FILE-z000.png, ... per slice)
                  --out FILE        write the labels as raw little-endian int32, -1 for background
                  --compact, --stats, --top K   as for label (background cells stay -1 and are not counted)
                  --json            print one JSON object instead of text
              bench        label the benchmark suite (graphs, then mesh fields), check every result against the
                           Java union-find, print times
                  --suite quick|full   graphs and fields of shared/BENCHMARKS.md (full) or smaller ones (quick)
                  --graphs A,B,...|none   only these graphs of the suite
                  --fields A,B,...|none   only these mesh fields (random site percolation, face neighbours)
                  --backend ...        as for label (default auto)
                  --algorithm NAME|all one graph algorithm or every one the backend runs (default auto)
                  --mesh-algorithm NAME|all   one mesh algorithm or every one the backend runs (default auto)
                  --runs N, --warmup N timed and untimed runs per graph or field (default 5 and 2)
                  --dir DIR            where generated graphs are cached (default target/bench-graphs)
                  --gengraph FILE      the generator's source (default ../shared/tools/gengraph.cpp)
                  --max-iterations N   stop iterative algorithms after N iterations and report them unconverged
                  --markdown FILE      also write the table as markdown
                  --json               print one JSON object instead of the table
              percolation  bond percolation: spanning probability R(p) per lattice size, p_c from the crossings
                  --lattice honeycomb|triangle|square|cubic|bcc|bethe|bethe-random   (default honeycomb)
                  --sizes N,N,...      site counts (2^k allowed); the nearest lattice of each is used (default 2^12,2^14)
                  --p FROM:TO:STEP     probabilities, or a comma list (default 0.60:0.70:0.01)
                  --trials N           realisations per (size, p) (default 100)
                  --seed S             Philox key (default 1)
                  --backend ...        as for label (default auto); --algorithm NAME (default komura)
                  --csv FILE, --png FILE   the table as CSV, a plot of R(p)
                  --json               print {"results":[{"lattice","size","p","trials","spanning","error"},...]}
                  --from-csv FILE      analyse and plot a CSV written by --csv instead of running
              ising        Swendsen-Wang for the Ising model on periodic lattices: |m|, energy, Binder cumulant
                  --dim 2|3            square or simple cubic (default 2)
                  --L A,B,...          linear sizes (default 16,32)
                  --T FROM:TO:STEP     temperatures, or a comma list (default 2.2:2.34:0.02 in 2D)
                  --sweeps N, --warmup N   measured and discarded sweeps per (L, T) (default 1000 and sweeps/5)
                  --seed S, --backend ..., --algorithm NAME, --csv FILE, --png FILE, --json
                  --from-csv FILE      analyse and plot a CSV written by --csv instead of running
              info         print the library version, backends and CUDA devices
              help         print this text

            exit codes: 0 ok, 1 native failure, 2 usage error, 3 invalid input, 4 backend unavailable
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs one command; returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE_TEXT);
            return USAGE;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        try {
            return switch (command) {
                case "label" -> LabelCommand.run(rest, out);
                case "mesh" -> MeshCommand.run(rest, out);
                case "info" -> InfoCommand.run(rest, out);
                case "bench" -> BenchCommand.run(rest, out);
                case "percolation" -> PercolationCommand.run(rest, out);
                case "ising" -> IsingCommand.run(rest, out);
                case "help", "--help", "-h" -> {
                    out.print(USAGE_TEXT);
                    yield OK;
                }
                default -> throw new UsageException("unknown command '" + command + "'");
            };
        } catch (UsageException e) {
            err.println("ccl4j: " + e.getMessage());
            err.print(USAGE_TEXT);
            return USAGE;
        } catch (BackendUnavailableException e) {
            err.println("ccl4j: backend unavailable: " + e.getMessage());
            return BACKEND_UNAVAILABLE;
        } catch (IllegalArgumentException e) {
            err.println("ccl4j: invalid input: " + e.getMessage());
            return INVALID_INPUT;
        } catch (NoSuchFileException e) {
            err.println("ccl4j: invalid input: no such file: " + e.getFile());
            return INVALID_INPUT;
        } catch (IOException | UncheckedIOException e) {
            err.println("ccl4j: invalid input: " + e.getMessage());
            return INVALID_INPUT;
        } catch (UnsupportedOperationException e) {
            err.println("ccl4j: " + e.getMessage());
            return USAGE;
        } catch (Ccl4jException e) {
            err.println("ccl4j: native failure (status " + e.status() + "): " + e.getMessage());
            return FAILURE;
        } catch (RuntimeException e) {
            // a bug of ours: say so plainly, with the trace for the report
            err.println("ccl4j: internal error: " + e);
            e.printStackTrace(err);
            return FAILURE;
        }
    }
}
