package org.ccl4j.bench;

import java.util.List;
import java.util.SortedSet;

import org.openjdk.jmh.Main;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmarks jar's entry point: JMH's command line, except that without a CUDA device the GPU
 * benchmarks (classes {@code Cuda*}) are skipped with a message instead of failing, so that a run
 * of everything, or of only GPU benchmarks, completes on a machine without a GPU.
 */
public final class BenchmarkMain {
    private static final String GPU_CLASSES = "\\.Cuda\\w*\\.";

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions command = new CommandLineOptions(args);
        if (command.shouldHelp() || command.shouldList() || command.shouldListWithParams()
                || command.shouldListProfilers() || command.shouldListResultFormats() || BenchGraphs.cudaPresent()) {
            Main.main(args);
            return;
        }
        List<String> includes = command.getIncludes().isEmpty() ? List.of(".*") : command.getIncludes();
        SortedSet<BenchmarkListEntry> selected = BenchmarkList.defaultList()
                .find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), includes,
                        command.getExcludes());
        List<String> gpu = selected.stream().map(BenchmarkListEntry::getUsername)
                .filter(name -> name.matches(".*" + GPU_CLASSES + ".*")).distinct().toList();
        if (!gpu.isEmpty()) {
            System.err.println("ccl4j: SKIPPED " + gpu.size() + " GPU benchmarks: no CUDA device here ("
                    + gpu.stream().map(n -> n.substring(n.lastIndexOf('.', n.lastIndexOf('.') - 1) + 1)).toList() + ")");
        }
        if (selected.isEmpty() || gpu.size() == selected.stream().map(BenchmarkListEntry::getUsername).distinct().count()) {
            if (selected.isEmpty()) {
                Main.main(args);  // JMH's own message for a pattern that matches nothing
            } else {
                System.err.println("ccl4j: nothing left to run without a GPU");
            }
            return;
        }
        Options options = new OptionsBuilder().parent(command).exclude(GPU_CLASSES).build();
        try {
            new Runner(options).run();
        } catch (RunnerException e) {
            System.err.println("ERROR: " + e.getMessage());
            System.exit(1);
        }
    }
}
