package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;

import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What a failing command prints and returns. Without {@code --json}: {@code ccl4j: MESSAGE} on
 * standard error; a usage error adds picocli's suggestion for a mistyped option or command, the
 * command's synopsis and where its help is. With {@code --json}: one object on standard output,
 * where a program reading the command's JSON looks, {@code {"error":MESSAGE,"kind":KIND,"exitCode":N}}.
 * The exit code is the same either way; see {@link Main}.
 */
final class Errors implements IParameterExceptionHandler, IExecutionExceptionHandler {
    /** The kinds of failure, as JSON names them, with their exit codes. */
    enum Kind {
        USAGE("usage", Main.USAGE),
        INVALID_INPUT("invalid-input", Main.INVALID_INPUT),
        BACKEND_UNAVAILABLE("backend-unavailable", Main.BACKEND_UNAVAILABLE),
        NATIVE_FAILURE("native-failure", Main.FAILURE),
        INTERNAL_ERROR("internal-error", Main.FAILURE);

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
        List<String> suggestions = e instanceof UnmatchedArgumentException u ? u.getSuggestions() : List.of();
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
        boolean json = command.getParseResult().hasMatchedOption("--json");
        PrintWriter err = command.getErr();
        return switch (e) {
            case UsageException u -> report(command, Kind.USAGE, u.getMessage(), List.of(), json);
            case BackendUnavailableException b -> report(command, Kind.BACKEND_UNAVAILABLE,
                    "backend unavailable: " + b.getMessage(), List.of(), json);
            case NoSuchFileException n -> report(command, Kind.INVALID_INPUT, "invalid input: no such file: "
                    + n.getFile(), List.of(), json);
            case IllegalArgumentException i -> invalidInput(command, i, json);
            case IOException i -> invalidInput(command, i, json);
            case UncheckedIOException i -> invalidInput(command, i, json);
            // the library's way of saying that a combination of options is not supported
            case UnsupportedOperationException u -> report(command, Kind.USAGE, u.getMessage(), List.of(), json);
            case Ccl4jException c -> report(command, Kind.NATIVE_FAILURE, "native failure (status " + c.status() + "): "
                    + c.getMessage(), List.of(), json);
            default -> {
                // a bug of ours: say so plainly, with the trace for the report
                int code = report(command, Kind.INTERNAL_ERROR, "internal error: " + e, List.of(), json);
                e.printStackTrace(err);
                err.flush();
                yield code;
            }
        };
    }

    /** Malformed files (the message names the file, the line or byte offset and the problem), bad values. */
    private static int invalidInput(CommandLine command, Exception e, boolean json) {
        return report(command, Kind.INVALID_INPUT, "invalid input: " + e.getMessage(), List.of(), json);
    }

    private static int report(CommandLine command, Kind kind, String message, List<String> suggestions, boolean json) {
        if (json) {
            ObjectNode error = Json.object().put("error", message).put("kind", kind.json).put("exitCode", kind.exitCode);
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
            err.println("Did you mean " + suggestions.get(0) + "?"); // picocli's closest match comes first
        }
        if (kind == Kind.USAGE) {
            CommandLine.Help help = command.getHelp();
            err.print(help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()));
            err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        }
        err.flush();
        return kind.exitCode;
    }

    /** The index of "--" (after it, "--json" would be a file name), or the length. */
    private static int endOfOptions(String[] args) {
        int end = Arrays.asList(args).indexOf("--");
        return end < 0 ? args.length : end;
    }
}
