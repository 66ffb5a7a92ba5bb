package org.ccl4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code ccl4j} command line: the top command, whose subcommands do the work.
 *
 * <p>Exit codes: 0 success; 1 a native failure (or an internal error, or a benchmark result that
 * differs from the Java union-find); 2 a usage error; 3 invalid input (the message names the file,
 * the line or byte offset and the problem); 4 the backend is unavailable; 5 an output file cannot
 * be written; 6 out of memory; 7 an iterative algorithm did not converge within --max-iterations;
 * 130 interrupted. {@link Errors} maps exceptions (and OutOfMemoryError) to them.
 */
@Command(name = "ccl4j",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Connected-component labelling of graphs and of 2D and 3D meshes, on NVIDIA GPUs and on CPUs.",
        subcommands = {LabelCommand.class, DistancesCommand.class, ConvertCommand.class, MeshCommand.class,
                BenchCommand.class, GenerateGraphCommand.class, PercolationCommand.class, IsingCommand.class,
                CoarseningCommand.class, InfoCommand.class, HelpCommand.class, AutoComplete.GenerateCompletion.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:success",
                "1:a native failure or an internal error; for bench also a result that differs from the"
                        + " Java union-find",
                "2:a usage error: unknown command or option, bad or missing value",
                "3:invalid input: the message names the file, the line or byte offset and the problem",
                "4:the backend is unavailable (e.g. --backend cuda without a GPU)",
                "5:an output file cannot be written (a directory, a missing or read-only directory, a full disk);"
                        + " nothing is left under its name",
                "6:out of memory, or work refused up front for want of it: raise the heap limit, e.g."
                        + " CCL4J_JAVA_OPTS=-Xmx8g",
                "7:an iterative algorithm did not converge within --max-iterations",
                "130:interrupted"},
        footerHeading = "%n",
        footer = {
                "Errors: 'ccl4j: MESSAGE' on standard error. With --json, one JSON object on standard output"
                        + " instead, with the same exit code:",
                "  {\"error\":\"MESSAGE\",\"kind\":\"KIND\",\"exitCode\":N}",
                "KIND is usage, invalid-input, backend-unavailable, native-failure, internal-error, output-error,"
                        + " out-of-memory, not-converged or interrupted; a usage error may add \"suggestions\":[...]"
                        + " for a mistyped option or command.",
                "",
                "Progress: bench, percolation and ising show it on standard error, also when standard output"
                        + " goes to a file: a bar on a terminal, else a line every 10 s. mesh shows it for a long"
                        + " --generate, label and distances for a large graph file, convert for a large graph file"
                        + " and a long write. --no-progress (or --quiet) hides it.",
                "",
                "ccl4j help COMMAND or ccl4j COMMAND --help describes a command's options."})
public final class Main implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    static final int INVALID_INPUT = 3;
    static final int BACKEND_UNAVAILABLE = 4;
    static final int OUTPUT_ERROR = 5;
    static final int OUT_OF_MEMORY = 6;
    static final int NOT_CONVERGED = 7;
    /** 128 + SIGINT, as shells report a command stopped by Ctrl-C. */
    static final int INTERRUPTED = 130;

    /**
     * The library's logger: held, since java.util.logging keeps only weak references to loggers
     * and would forget the configuration of {@link #plainWarnings}.
     */
    private static final Logger LIBRARY_LOG = Logger.getLogger("org.ccl4j");

    @Spec
    private CommandSpec spec;

    private final boolean stderrIsTerminal;

    private Main(boolean stderrIsTerminal) {
        this.stderrIsTerminal = stderrIsTerminal;
    }

    /** Runs the command line {@code args} and exits with its exit code. */
    public static void main(String[] args) {
        plainWarnings();
        System.exit(run(Arrays.asList(args), System.out, System.err, Progress.stderrIsTerminal()));
    }

    /**
     * The library's warnings (such as labelling on the JAVA backend for want of the native library)
     * as one line on standard error in the CLI's own form, {@code ccl4j: MESSAGE}, instead of
     * java.util.logging's two lines with a timestamp and the logging class; its other records
     * (debug) are not shown.
     */
    static void plainWarnings() {
        Handler line = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    // the library's messages start with its name, which the prefix already says
                    String message = getFormatter().formatMessage(record);
                    System.err.println("ccl4j: " + (message.startsWith("ccl4j ") ? message.substring(6) : message));
                    System.err.flush();
                }
            }

            @Override
            public void flush() {
                System.err.flush();
            }

            @Override
            public void close() {
            }
        };
        line.setFormatter(new SimpleFormatter());
        line.setLevel(Level.WARNING);
        LIBRARY_LOG.setUseParentHandlers(false);
        LIBRARY_LOG.addHandler(line);
    }

    /** Runs one command, writing to {@code out} and {@code err}; returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, out, err, false);
    }

    /**
     * Runs one command; returns the exit code.
     *
     * @param stderrIsTerminal whether {@code err} is a terminal (the progress bar is then redrawn in place)
     */
    static int run(List<String> args, PrintStream out, PrintStream err, boolean stderrIsTerminal) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, out.charset()), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, err.charset()), true);
        try {
            return commandLine(stderrIsTerminal, outWriter, errWriter).execute(args.toArray(String[]::new));
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** The command tree with the CLI's converters, help layout and error handling. */
    static CommandLine commandLine(boolean stderrIsTerminal, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new Main(stderrIsTerminal));
        Converters.register(commandLine);
        layout(commandLine);
        Errors errors = new Errors();
        return commandLine.setOut(out).setErr(err)
                .setParameterExceptionHandler(errors)
                .setExecutionExceptionHandler(errors)
                .setExecutionStrategy(errors.reportingOutOfMemory(new CommandLine.RunLast()));
    }

    /**
     * The same help layout for every command: "usage:" and the options in the order they are
     * declared; and the same --version.
     */
    private static void layout(CommandLine commandLine) {
        commandLine.setUsageHelpAutoWidth(true);
        commandLine.getCommandSpec().versionProvider(new Version());
        commandLine.getCommandSpec().usageMessage().synopsisHeading("usage: ").abbreviateSynopsis(true)
                .sortOptions(false).descriptionHeading("%n").parameterListHeading("%nArguments:%n")
                .optionListHeading("%nOptions:%n").commandListHeading("%nCommands:%n");
        commandLine.getSubcommands().values().forEach(Main::layout);
    }

    /** {@code ccl4j} without a command: a usage error, with the list of commands. */
    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("ccl4j: missing command");
        spec.commandLine().usage(err);
        return USAGE;
    }

    /** Whether standard error is a terminal (for the commands' progress). */
    boolean stderrIsTerminal() {
        return stderrIsTerminal;
    }

    /** Where messages and progress go. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The Maven project version of this jar ("unknown" when run from classes that Maven did not filter). */
    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** {@code ccl4j --version}: this jar's version, the native library's, and whether CUDA can be used. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            Capabilities c = ComponentLabeler.capabilities();
            String library = c.nativeLoadError() != null ? "native library: not loaded (" + c.nativeLoadError() + ")"
                    : "native library " + c.version() + ", " + cuda(c);
            return new String[] {"ccl4j " + version(), library,
                    "Java ${java.version} (${java.vendor}), ${os.name} ${os.arch}"};
        }

        private static String cuda(Capabilities c) {
            if (!c.cudaCompiled()) {
                return "CUDA not compiled in (CPU backends only)";
            }
            int n = c.devices().size();
            return n == 0 ? "CUDA compiled in, no device found"
                    : "CUDA available, " + n + (n == 1 ? " device: " : " devices, the first: ")
                            + c.devices().get(0).name();
        }
    }
}
