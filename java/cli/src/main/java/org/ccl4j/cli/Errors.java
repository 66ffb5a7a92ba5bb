package org.ccl4j.cli;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Capabilities;
import org.ccl4j.Ccl4jException;
import org.ccl4j.ComponentLabeler;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What a failing command prints and returns. Without {@code --json}: {@code ccl4j: MESSAGE} on
 * standard error; a usage error adds a suggestion for a mistyped option or command, the
 * command's synopsis and where its help is. With {@code --json}: one object on standard output,
 * where a program reading the command's JSON looks, {@code {"error":MESSAGE,"kind":KIND,"exitCode":N}}.
 * The exit code is the same either way; see {@link Main}. Only an internal error (a bug of ours)
 * prints a stack trace. Either way a long quoted token is shortened ({@link #shortenTokens}).
 */
final class Errors implements IParameterExceptionHandler, IExecutionExceptionHandler {
    /** The characters of a quoted token that a message keeps. */
    static final int TOKEN_CHARACTERS = 60;

    /**
     * A quoted token: from a quote that no letter or digit precedes (not the apostrophe of "file's")
     * to the first quote that no letter or digit follows.
     */
    private static final Pattern QUOTED = Pattern.compile("(?<![\\p{L}\\p{N}])'(.*?)'(?![\\p{L}\\p{N}])",
            Pattern.DOTALL);

    /** How the native library's reason for an unusable CUDA backend starts, before the CUDA runtime's error. */
    private static final String NO_CUDA = "no usable CUDA driver or device";

    /** The kinds of failure, as JSON names them, with their exit codes. */
    enum Kind {
        USAGE("usage", Main.USAGE),
        INVALID_INPUT("invalid-input", Main.INVALID_INPUT),
        BACKEND_UNAVAILABLE("backend-unavailable", Main.BACKEND_UNAVAILABLE),
        NATIVE_FAILURE("native-failure", Main.FAILURE),
        INTERNAL_ERROR("internal-error", Main.FAILURE),
        OUTPUT_ERROR("output-error", Main.OUTPUT_ERROR),
        OUT_OF_MEMORY("out-of-memory", Main.OUT_OF_MEMORY),
        NOT_CONVERGED("not-converged", Main.NOT_CONVERGED),
        INTERRUPTED("interrupted", Main.INTERRUPTED);

        final String json;
        final int exitCode;

        Kind(String json, int exitCode) {
            this.json = json;
            this.exitCode = exitCode;
        }
    }

    /** A command line that picocli could not parse: an unknown option or command, a bad or missing value. */
    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        List<String> suggestions = e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                ? closest(u.getSuggestions(), u.getUnmatched().get(0)) : List.of();
        String message = e.getMessage();
        if (e instanceof UnmatchedArgumentException u && command.getParent() == null && !u.isUnknownOption()
                && args.length > 0 && u.getUnmatched().get(0).equals(args[0])) {
            message = "unknown command '" + args[0] + "'"; // picocli says "Unmatched arguments from index 0: ..."
        }
        // the parse failed, so the parse result cannot say whether --json came before the error: look at the words
        boolean json = Arrays.asList(args).subList(0, endOfOptions(args)).contains("--json");
        return report(command, Kind.USAGE, message, suggestions, json);
    }

    /** An exception from a command's work: its kind decides the message and the exit code. */
    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
        boolean json = json(command);
        PrintWriter err = command.getErr();
        // an interrupt or exhausted memory, wherever it was wrapped, is what stopped the command
        if (causes(e).anyMatch(Errors::isInterrupt)) {
            Thread.currentThread().interrupt(); // the thread stays interrupted for an in-process caller
            return report(command, Kind.INTERRUPTED, "interrupted", List.of(), json);
        }
        OutOfMemoryError outOfMemory = (OutOfMemoryError) causes(e).filter(OutOfMemoryError.class::isInstance)
                .findFirst().orElse(null);
        if (outOfMemory != null) {
            return report(command, Kind.OUT_OF_MEMORY, "out of memory: " + HeapLimit.outOfMemory(outOfMemory),
                    List.of(), json);
        }
        return switch (e) {
            case UsageException u -> report(command, Kind.USAGE, u.getMessage(), List.of(), json);
            case OutputException o -> report(command, Kind.OUTPUT_ERROR, "cannot write " + o.getMessage(), List.of(),
                    json);
            case HeapLimit.TooLargeException t -> report(command, Kind.OUT_OF_MEMORY, "out of memory: "
                    + t.getMessage(), List.of(), json);
            case BackendUnavailableException b -> report(command, Kind.BACKEND_UNAVAILABLE,
                    "backend unavailable: " + unavailable(describe(b), ComponentLabeler::capabilities), List.of(),
                    json);
            case NoSuchFileException n -> report(command, Kind.INVALID_INPUT, "invalid input: no such file: "
                    + n.getFile(), List.of(), json);
            case IllegalArgumentException i -> invalidInput(command, i, json);
            case IOException i -> invalidInput(command, i, json);
            case UncheckedIOException i -> invalidInput(command, i, json);
            // the library's way of saying that a combination of options is not supported
            case UnsupportedOperationException u -> report(command, Kind.USAGE, describe(u), List.of(), json);
            case Ccl4jException c when c.status() == Ccl4jException.Status.NOT_CONVERGED -> report(command,
                    Kind.NOT_CONVERGED, "did not converge: " + describe(c) + "; raise --max-iterations (0, the"
                            + " default, lets every correct run finish) or choose another --algorithm", List.of(),
                    json);
            // a host or device allocation of the native library: -Xmx does not help there
            case Ccl4jException c when c.status() == Ccl4jException.Status.OUT_OF_MEMORY -> report(command,
                    Kind.OUT_OF_MEMORY, "out of memory (native): " + describe(c), List.of(), json);
            case Ccl4jException c -> report(command, Kind.NATIVE_FAILURE, "native failure (status " + c.status() + "): "
                    + describe(c), List.of(), json);
            default -> {
                // a bug of ours: say so plainly, with the trace for the report
                int code = report(command, Kind.INTERNAL_ERROR, "internal error: " + e, List.of(), json);
                e.printStackTrace(err);
                err.flush();
                yield code;
            }
        };
    }

    /**
     * {@code strategy}, with an OutOfMemoryError reported as one line of its own kind: picocli
     * hands only exceptions to {@link #handleExecutionException}, and passes errors on. Here the
     * command's frames are gone, and with them what filled the heap, so the report has room.
     */
    IExecutionStrategy reportingOutOfMemory(IExecutionStrategy strategy) {
        return parsed -> {
            try {
                return strategy.execute(parsed);
            } catch (OutOfMemoryError e) {
                List<CommandLine> commands = parsed.asCommandLineList();
                CommandLine command = commands.get(commands.size() - 1);
                return report(command, Kind.OUT_OF_MEMORY, "out of memory: " + HeapLimit.outOfMemory(e), List.of(),
                        json(command));
            }
        };
    }

    /**
     * Why a backend is unavailable, in the words of {@code ccl4j info} where the library gives the
     * CUDA runtime's error (cudaErrorInsufficientDriver when no driver is installed), which means
     * little to a user; the library's reason follows in parentheses.
     */
    static String unavailable(String reason, Supplier<Capabilities> capabilities) {
        if (!reason.startsWith(NO_CUDA)) {
            return reason;
        }
        Capabilities c = capabilities.get();
        String words = c.cudaDriverVersion() == 0 ? "the CUDA driver is not installed"
                : c.devices().isEmpty() ? "no CUDA device is present" : null;
        return words == null ? reason : words + " (" + reason + ")";
    }

    /** An exception's message, or its class when it has none (a ClosedByInterruptException has none). */
    static String describe(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static boolean json(CommandLine command) {
        return command.getParseResult() != null && command.getParseResult().hasMatchedOption("--json");
    }

    /** {@code e} and its causes. */
    private static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, Objects::nonNull, Throwable::getCause).limit(32); // a cause cycle stops too
    }

    /** How an interrupt surfaces: in a wait, in stream I/O, or as an interruptible channel closing. */
    private static boolean isInterrupt(Throwable e) {
        return e instanceof InterruptedException || e instanceof InterruptedIOException
                || e instanceof ClosedByInterruptException;
    }

    /** Malformed files (the message names the file, the line or byte offset and the problem), bad values. */
    private static int invalidInput(CommandLine command, Exception e, boolean json) {
        return report(command, Kind.INVALID_INPUT, "invalid input: " + describe(e), List.of(), json);
    }

    private static int report(CommandLine command, Kind kind, String fullMessage, List<String> suggestions,
            boolean json) {
        String message = shortenTokens(fullMessage);
        if (json) {
            ObjectNode error = Json.object().put("error", message).put("kind", kind.json)
                    .put("exitCode", kind.exitCode);
            if (!suggestions.isEmpty()) {
                suggestions.forEach(error.putArray("suggestions")::add);
            }
            command.getOut().println(Json.write(error));
            command.getOut().flush();
            return kind.exitCode;
        }
        PrintWriter err = command.getErr();
        err.println("ccl4j: " + message);
        if (!suggestions.isEmpty()) {
            err.println("Did you mean " + String.join(" or ", suggestions) + "?");
        }
        if (kind == Kind.USAGE) {
            CommandLine.Help help = command.getHelp();
            err.print(help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()));
            err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        }
        err.flush();
        return kind.exitCode;
    }

    /**
     * {@code message} with each quoted token of more than {@link #TOKEN_CHARACTERS} characters cut
     * to its first ones, an ellipsis and its length: {@code 'xxxx...' (4096 characters)}. Tokens
     * come from the command line and from files (a parser's "found '...'", picocli's "Invalid value
     * ... 'VALUE'"), and nothing bounds their length: a message names the token, it does not reprint
     * kilobytes of it.
     */
    static String shortenTokens(String message) {
        Matcher quoted = QUOTED.matcher(message);
        StringBuilder shortened = new StringBuilder();
        while (quoted.find()) {
            String token = quoted.group(1);
            int characters = token.codePointCount(0, token.length());
            String replacement = characters <= TOKEN_CHARACTERS ? quoted.group()
                    : "'" + token.substring(0, token.offsetByCodePoints(0, TOKEN_CHARACTERS)) + "...' (" + characters
                            + " characters)";
            quoted.appendReplacement(shortened, Matcher.quoteReplacement(replacement));
        }
        return quoted.appendTail(shortened).toString();
    }

    /**
     * Those of picocli's suggestions that are closest to what was typed, by edit distance. Picocli
     * finds good candidates but does not order them by closeness: for --conectivity it offers
     * --color first, then --connectivity.
     */
    static List<String> closest(List<String> candidates, String typed) {
        String word = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        int best = candidates.stream().mapToInt(c -> distance(c, word)).min().orElse(0);
        return candidates.stream().filter(c -> distance(c, word) == best).toList();
    }

    /** Levenshtein distance, a swap of two neighbouring letters counting as one edit (lable, label). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** The index of "--" (after it, "--json" would be a file name), or the length. */
    private static int endOfOptions(String[] args) {
        int end = Arrays.asList(args).indexOf("--");
        return end < 0 ? args.length : end;
    }
}
