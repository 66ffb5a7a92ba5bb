package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.ccl4j.Backend;
import org.ccl4j.Ccl4jException;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Contacts;
import org.ccl4j.MemoryNeeds;
import org.ccl4j.io.grid.ImageFormatException;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.Intensity;
import org.ccl4j.io.grid.GridFormat;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.io.grid.VoxelSpace;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.GridWriter;
import org.ccl4j.io.grid.LabelImageWriter;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.ProgressListener;
import org.ccl4j.MeshStatistics;
import org.ccl4j.Numbering;
import org.ccl4j.Spacing;
import org.ccl4j.StatisticsOptions;
import org.ccl4j.Timings;
import org.ccl4j.io.Input;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j mesh FILE [...]} and {@code ccl4j mesh --generate SPEC [...]}: reads or generates a
 * 2D or 3D grid, labels its clusters, reports and optionally writes the labels and their picture.
 * A grid of more than 2^31-1 cells (a raw volume, a generated field) gets int64 labels, on which
 * every option works: --stats and --top then come from a statistics table (a cluster's size may
 * pass an int), --compact from the book-keeping's bitmap of roots, --out writes int64.
 */
@Command(name = "mesh", mixinStandardHelpOptions = true,
        description = "Label the clusters of a 2D or 3D grid: an image (PGM, PNG, TIFF), a volume (NumPy, NRRD,"
        + " NIfTI, TIFF, raw), or a generated field.",
        customSynopsis = {"ccl4j mesh [OPTIONS] FILE", "   or: ccl4j mesh [OPTIONS] --generate SPEC"})
final class MeshCommand implements Callable<Integer> {
    /**
     * The most sweeps that --generate alloy runs without --allow-long-generate: a sweep of a small
     * grid takes tens of microseconds, so this bounds a tiny alloy to seconds.
     */
    private static final int MAX_ALLOY_STEPS = 100_000;
    /** The most cell updates (cells × steps) of an alloy without --allow-long-generate: minutes on two cores. */
    private static final long MAX_ALLOY_CELL_STEPS = 10_000_000_000L;

    /** Options that say how a file is read: meaningless for a generated field. */
    private static final List<String> READ_OPTIONS = List.of("--format", "--dims", "--type", "--threshold", "--color");

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "The grid: a PGM or PNG image, a NumPy (.npy),"
            + " NRRD (.nrrd, .nhdr), NIfTI-1 (.nii, .nii.gz) or TIFF (.tif, .tiff; a page per z-slice) array, or a"
            + " raw file (with --dims), plain or gzip-compressed; - reads standard input (raw cells from it need"
            + " --format raw --dims). uint8, uint16 and float32 cells are labelled as they are, other integers as"
            + " int32.")
    private Input file;

    @Option(names = "--generate", paramLabel = "SPEC", description = "Label a generated field instead of a file:"
            + " spiral:N | percolation:WxH[xD]:p:seed | alloy:N:steps:seed | alloy:WxH[xD]:steps:seed"
            + " | cahn-hilliard:WxH[xD]:steps:seed[:concentration] (c > 0, default concentration -0.4). An alloy or"
            + " a Cahn-Hilliard field runs at most " + MAX_ALLOY_STEPS + " steps and " + MAX_ALLOY_CELL_STEPS
            + " cell updates (cells x steps).")
    private String generator;

    @Option(names = "--allow-long-generate", description = "Lift the limits on --generate alloy's steps and cell"
            + " updates (a long run shows its progress on standard error).")
    private boolean allowLongGenerate;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "auto",
            completionCandidates = Converters.GridFormatNames.class,
            description = "Input format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, by content and"
                    + " extension).")
    private GridFormat format;

    @Option(names = "--dims", paramLabel = "WxH[xD]", description = "Dimensions of a raw file (required for raw).")
    private GridDims dims;

    @Option(names = "--type", paramLabel = "TYPE", defaultValue = "u8",
            completionCandidates = Converters.CellTypeNames.class,
            description = "Cell type of a raw file: u8 (uint8), u16, i32 or f32 (little-endian uint16, int32,"
                    + " float32); default: ${DEFAULT-VALUE}.")
    private Grid.CellType type;

    @Option(names = "--threshold", paramLabel = "T", description = "Label the cells whose value is at least T (grey"
            + " value, luminance, raw cell or array element), as a uint8 field.")
    private Integer threshold;

    @Option(names = "--color", paramLabel = "MODE", defaultValue = "luminance",
            completionCandidates = Converters.ColorNames.class,
            description = "Colour PNGs: BT.601 luminance or 0xRRGGBB per cell (${COMPLETION-CANDIDATES}; default:"
                    + " ${DEFAULT-VALUE}).")
    private GridReadOptions.ColorMode color;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "foreground",
            completionCandidates = Converters.MeshModeNames.class,
            description = "Label the non-zero cells, or connect neighbours of equal value: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    private MeshMode mode;

    @Option(names = "--delta", paramLabel = "D", description = "Same-value mode with a tolerance: neighbours whose"
            + " values differ by at most D connect (cc3d's delta; for float cells above all). Implies --mode"
            + " same-value.")
    private Double delta;

    @Option(names = "--connectivity", paramLabel = "N", description = "Neighbours: 4 or 8 in 2D, 6, 18 (faces and edges) or 26"
            + " in 3D; on a single layer 6 means 4, and 18 and 26 mean 8 (default: faces, 4 in 2D and 6 in 3D).")
    private int connectivity;

    @Option(names = "--periodic", description = "Wrap-around boundaries on every axis (default: open).")
    private boolean periodic;

    @Option(names = "--periodic-axes", paramLabel = "AXES", description = "Wrap-around on some axes only, e.g. xy.")
    private String periodicAxes;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.MeshAlgorithmNames.class,
            description = "The algorithm: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private MeshAlgorithm algorithm;

    @Option(names = "--int64-labels", description = "Label with int64 labels whatever the grid's size; a grid of more"
            + " than 2147483647 cells gets them anyway (--out then writes int64, with --compact too).")
    private boolean int64Labels;

    @Mixin
    private RunOptions run;

    @Option(names = "--region", paramLabel = "X,Y[,Z]:WxH[xD]", description = "Label only this region of the grid"
            + " (a view, not a copy).")
    private String region;

    @Option(names = "--save", paramLabel = "FILE", description = "Write the grid that is labelled (.pgm, .png, .npy,"
            + " .nrrd, .nii, .nii.gz, .tif, .tiff, else raw).")
    private Path save;

    @Option(names = "--png", paramLabel = "FILE", description = "Write the labels as a colour picture (a volume:"
            + " FILE-z000.png, ... per slice).")
    private Path png;

    @Option(names = "--montage", paramLabel = "SLICES", arity = "0..1", fallbackValue = "",
            description = "With --png: a volume's z-slices in one picture, side by side row by row (as Fiji's Make"
                    + " Montage): FIRST:END[:STEP] (END excluded), a list Z,Z,..., or nothing for up to 16 slices"
                    + " evenly spread.")
    private String montage;

    @Option(names = "--projection", paramLabel = "FILE", description = "Write one PNG of the labels over the cells'"
            + " maximum-intensity projection along z: the projection in grey, each pixel tinted with the colour of"
            + " the cluster of the cell that holds the maximum (the first along z on ties), as a labels layer over a"
            + " MIP in napari or Fiji; a binary volume shows its clusters as seen from z = 0.")
    private Path projection;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the labels as int32, -1 for background (int64"
            + " for a grid of more than 2147483647 cells): .npy, .nrrd, .nii, .nii.gz, .tif or .tiff (int32 only) by"
            + " the extension, else raw little-endian; see --numbering. Raw, .npy, .nrrd and .nii are written"
            + " straight into the file (memory-mapped), so it may be larger than the host's memory. Labels of a"
            + " NIfTI (NRRD) FILE written as NIfTI (NRRD) keep its voxel sizes and orientation, so that they overlay"
            + " it in viewers.")
    private Path out;

    @Option(names = "--numbering", paramLabel = "NUMBERING", defaultValue = "canonical",
            completionCandidates = OutNumberings.class,
            description = "The labels --out writes: canonical (each cluster's smallest cell index, -1 for background;"
                    + " int32, int64 past 2147483647 cells) or raster (1..k in raster order, 0 for background, as"
                    + " scikit-image and cc3d number them; int32 whatever the grid's size). Default: ${DEFAULT-VALUE}.")
    private String numbering;

    @Option(names = {"--memory-budget", "--device-memory"}, paramLabel = "SIZE", converter = ByteSizes.class,
            description = "Label in slabs along the slowest axis (z; y in 2D), each taking at most SIZE (bytes, or"
                    + " with K, M, G, T: 512M, 4G): device memory on CUDA, elsewhere the host memory of a slab's"
                    + " labels and working arrays. Default: slabs only where the whole grid does not fit: the free"
                    + " device memory on CUDA, elsewhere the host memory available for its cells and labels. A raw"
                    + " FILE is mapped, not read, so grids larger than the host's memory are labelled too.")
    private Long memoryBudget;

    @Option(names = "--regions", paramLabel = "FILE", description = "Write one CSV row per cluster, labelled 1..k in"
            + " raster order (scikit-image's numbering; OpenCV's with CCL_SAUF): label,size,xmin,ymin,zmin,xmax,ymax,zmax,cx,cy,cz,sum,min,"
            + "max,mean,touches,wraps. Zero-based cell coordinates, an inclusive bounding box, the centroid, the sum,"
            + " minimum, maximum and mean of the intensity, the faces of the grid it touches (e.g. x-y+) and the"
            + " periodic axes it wraps around, i.e. percolates along (e.g. xy; empty for none). --stats then lists"
            + " the largest clusters by these labels.")
    private Path regions;

    @Option(names = "--contacts", paramLabel = "FILE", description = "Write one CSV row per pair of clusters that"
            + " touch (cc3d's contacts; the pairs are its region_graph): label1,label2,contacts,x_faces,y_faces,z_faces,"
            + "area. Canonical labels, label1 < label2; contacts counts the touching pairs of cells, x_faces .. z_faces"
            + " those that share a face across x, y, z, area the faces' area in the cell sizes of --spacing (edges"
            + " and corners have none). Clusters of different values touch in --mode same-value; foreground clusters"
            + " only under a wider --contacts-connectivity than they were labelled with.")
    private Path contacts;

    @Option(names = "--contacts-connectivity", paramLabel = "N", description = "With --contacts: the cells that touch,"
            + " 4 or 8 in 2D, 6, 18 (faces and edges) or 26 in 3D (default: --connectivity). Periodic axes wrap as"
            + " for labelling.")
    private Integer contactsConnectivity;

    @Option(names = "--intensity", paramLabel = "FILE", description = "With --regions: the grid whose values are"
            + " summed, of the grid's extents, read as FILE is (--format, --dims, --type, --color; not --threshold)."
            + " Default: the labelled cells' values (0 or 1 after --threshold). - reads standard input.")
    private Input intensity;

    @Option(names = "--measure", description = "With --regions: add scikit-image's shape measures to each row:"
            + " area,perimeter,perimeter_8,surface_area,mu_xx,mu_yy,mu_zz,mu_xy,mu_xz,mu_yz,eigval_0,eigval_1,"
            + "eigval_2,orientation,axis_major_length,axis_minor_length,eccentricity,equivalent_diameter_area"
            + " (regionprops' names: central moments, the inertia tensor's eigenvalues; NaN where scikit-image has"
            + " none, such as a 3D perimeter), in the cell sizes of --spacing. One more pass over the labels.")
    private boolean measure;

    @Option(names = "--spacing", paramLabel = "DX,DY[,DZ]", description = "The cells' extents along x, y (and z):"
            + " the units of the measures of --regions (scikit-image's spacing, whose tuple lists the axes the other"
            + " way round; with --regions it implies --measure) and of the area of --contacts (cc3d's anisotropy)."
            + " Default: a NIfTI or NRRD FILE's voxel sizes, else 1,1,1. The box and centroid stay in cells.")
    private String spacing;

    @Mixin
    private LabelStatistics.Options bookkeeping;

    @Mixin
    private Progress.Options progressOptions;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    private boolean json;

    /** {@code options} with --delta's tolerance (and so in same-value mode), when it is given. */
    private MeshOptions withTolerance(MeshOptions options) {
        return delta == null ? options : options.withDelta(delta);
    }

    @Override
    public Integer call() throws IOException {
        checkSource();
        GridReadOptions readOptions = generator == null ? readOptions() : null;
        GridGenerators.Spec spec = generator == null ? null : generatorSpec();
        Region view = region == null ? null : Region.parse(region);
        boolean[] periodicAxes = periodicAxes();
        run.check();
        bookkeeping.check(out);
        checkRegions();
        checkContacts();
        if (montage != null && png == null) {
            throw new UsageException("--montage lays out the slices of --png; give --png FILE");
        }
        // before any work: a run of minutes should not fail for a mistyped output directory at its end
        for (Path output : new Path[] {save, png, out, regions, contacts, projection}) {
            if (output != null) {
                OutputFile.check(output);
            }
        }
        MeshOptions options = UsageException.whenInvalid(() -> withTolerance(MeshOptions.defaults().withAlgorithm(algorithm)
                .withMode(mode).withConnectivity(connectivity)
                .withPeriodic(periodicAxes[0], periodicAxes[1], periodicAxes[2]).withCpuThreads(run.threads)
                .withMaxIterations(run.maxIterations).withWideLabels(int64Labels)
                .withMemoryBudget(memoryBudget == null ? 0 : memoryBudget)));
        boolean raster = rasterNumbering();
        Backend backend = backendFor(run.backend, algorithm);
        PrintWriter stdout = command.commandLine().getOut();

        // Shared: the slab run writes the labels (a mapped output file) on every core.
        try (Arena arena = Arena.ofShared();
             ComponentLabeler labeler = ComponentLabeler.create(backend, run.devices());
             OutputFile.Group outputs = new OutputFile.Group();
             SlabProgress slabs = new SlabProgress()) {
            options = options.withProgress(slabs);
            // checked before a large file is read
            if (algorithm != MeshAlgorithm.AUTO && !algorithm.runsOn(labeler.backend())) {
                throw new UsageException("--algorithm " + CliNames.of(algorithm) + " does not run on the "
                        + CliNames.of(labeler.backend()) + " backend");
            }
            if (spec != null) {
                requireRoom(spec.dims(), view, options, labeler, arena);
            }
            Grid input = spec == null ? read(file, readOptions, arena) : generate(spec, arena);
            Grid grid = view == null ? input : view.of(input);
            checkConnectivity(options, grid);
            int[] slices = montage == null ? null : LabelPictures.slices(montage, grid.depth());
            // a NIfTI or NRRD file's voxel sizes and orientation, for --out in its format, and the cell sizes
            // of the measures and the contact area unless --spacing says otherwise
            VoxelSpace space = file != null && file.file() != null ? VoxelSpace.of(file.file()) : VoxelSpace.none();
            Spacing cellSize = spacing != null ? givenSpacing() : fileSpacing(space);
            if (contactsConnectivity != null && grid.depth() > 1 && (contactsConnectivity == 4 || contactsConnectivity == 8)) {
                throw new UsageException("--contacts-connectivity " + contactsConnectivity + " does not fit a "
                        + grid.width() + "x" + grid.height() + "x" + grid.depth() + " volume: expected 6, 18 or 26");
            }
            MemoryNeeds memory = labeler.memoryNeeds(grid, options);
            Intensity values = intensity == null ? null : intensity(input, view, arena);
            if (save != null) {
                outputs.write(save, temporary -> GridWriter.write(grid, temporary));
            }
            // int64 labels have their --stats and --top from a table (whose sizes may pass an int)
            boolean wide = options.labelBytesFor(grid) == Long.BYTES;
            Numbering numbered = raster ? Numbering.RASTER : Numbering.CANONICAL;
            int labelBytes = options.labelBytesFor(grid, numbered);
            if (out != null && !LabelImageWriter.holds(out, labelBytes)) {
                throw new UsageException("--out " + out + ": TIFF holds labels of up to 32 bits, these are int64: name"
                        + " a .npy, .nrrd, .nii or raw file");
            }
            // --out is written straight into its file (no copy of the labels in memory) where the layouts agree
            // (after the header of .npy, .nrrd and .nii files; TIFF and gzip-compressed files are written from memory)
            byte[] header = out == null ? null : LabelImageWriter.headerBeforeLabels(out, grid.width(), grid.height(),
                    grid.depth(), labelBytes, space);
            boolean mapped = header != null && !bookkeeping.compact && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
            MemorySegment target = null;
            if (mapped) {
                MemorySegment file = outputs.map(out, Math.addExact(header.length,
                        Math.multiplyExact(grid.cellCount(), labelBytes)), arena);
                MemorySegment.copy(MemorySegment.ofArray(header), 0, file, 0, header.length);
                target = file.asSlice(header.length);
            }
            MeshStatistics table = null;
            MeshLabels labels = null;
            Result result;
            if (regions != null || raster || (wide && bookkeeping.wanted())) {
                // the rows are in raster order in both numberings
                StatisticsOptions rows = new StatisticsOptions(numbered, regions == null ? null : values,
                        regions != null && measures());
                table = mapped ? labeler.labelWithStatistics(grid, options, rows, target)
                        : labeler.labelWithStatistics(grid, options, rows, arena);
                labels = raster ? null : table.canonicalLabels();
                result = Result.of(table);
            } else {
                labels = mapped ? labeler.label(grid, options, target) : labeler.label(grid, options, arena);
                result = Result.of(labels);
            }
            if (mapped) {
                // written: the group forces the mapping to the disk at its commit
            } else if (out != null && raster) {
                MemorySegment written = table.labels();
                outputs.write(out, temporary -> LabelImageWriter.write(written, Integer.BYTES, grid.width(),
                        grid.height(), grid.depth(), temporary, space));
            } else if (out != null && bookkeeping.compact) {
                MemorySegment written = labels.compact(arena);
                int bytes = wide ? Long.BYTES : Integer.BYTES;
                outputs.write(out, temporary -> LabelImageWriter.write(written, bytes, grid.width(), grid.height(),
                        grid.depth(), temporary, space));
            } else if (out != null) {
                MeshLabels written = labels;
                outputs.write(out, temporary -> LabelImageWriter.write(written, temporary, space));
            }
            RegionsCsv rows = regions == null ? null : RegionsCsv.of(table, measures() ? cellSize : null);
            if (rows != null) {
                rows.write(outputs, regions);
            }
            // with --regions the largest components go by the table's labels, as the CSV numbers them
            LabelStatistics statistics = rows != null ? bookkeeping.ofRegions(table.count(), table::size)
                    : wide || raster ? bookkeeping.of(table) : bookkeeping.of(labels.labels());
            List<Path> pictures = new ArrayList<>();
            if (slices != null) {
                MeshLabels drawn = labels;
                outputs.write(png, temporary -> LabelPictures.writeMontage(drawn, slices, temporary));
                pictures.add(png);
            } else if (png != null) {
                pictures.addAll(writePictures(outputs, labels, png));
            }
            if (projection != null) {
                MeshLabels drawn = labels;
                outputs.write(projection, temporary -> LabelPictures.writeProjection(grid, drawn, temporary));
            }
            Contacts touching = null;
            if (contacts != null) {
                int c = contactsConnectivity != null ? contactsConnectivity : options.connectivityFor(grid);
                MeshLabels counted = labels;
                touching = UsageException.whenInvalid(() -> counted.contacts(c, periodicAxes[0], periodicAxes[1],
                        periodicAxes[2]));
                ContactsCsv.write(outputs, contacts, touching, cellSize);
            }
            outputs.commit();
            if (json) {
                ObjectNode node = json(grid, result, memory);
                if (region != null) {
                    node.put("region", region);
                }
                if (rows != null) {
                    rows.addTo(node, bookkeeping.jsonRows());
                }
                if (touching != null) {
                    node.putObject("contacts").put("pairs", touching.size()).put("connectivity",
                            touching.connectivity());
                }
                stdout.println(Json.write(statistics == null ? node : statistics.addTo(node)));
            } else {
                String name = generator == null ? file.toString() : generator;
                summary(stdout, region == null ? name : name + " region " + region, grid, result, options,
                        memory, pictures);
                if (rows != null) {
                    stdout.printf("regions: %s (%d rows)%n", regions, table.count());
                }
                if (projection != null) {
                    stdout.println("projection: " + projection);
                }
                if (touching != null) {
                    stdout.printf("contacts: %s (%d pairs, connectivity %d)%n", contacts, touching.size(),
                            touching.connectivity());
                }
                if (statistics != null) {
                    statistics.print(stdout);
                }
            }
            if (table != null) {
                table.close();  // the table over a mapped --out has memory of its own
            }
        }
        return Main.OK;
    }

    /** Exactly one of FILE and --generate; the options that read a file only with a file. */
    private void checkSource() {
        if (generator != null) {
            if (file != null) {
                throw new UsageException("mesh takes a FILE or --generate SPEC, not both");
            }
            for (String option : READ_OPTIONS) {
                if (command.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new UsageException(option + " applies to files, not to --generate");
                }
            }
        } else if (file == null) {
            throw new UsageException("mesh needs a FILE or --generate SPEC");
        }
    }

    /** --contacts-connectivity refines --contacts, which names canonical labels. */
    private void checkContacts() {
        if (contacts == null && contactsConnectivity != null) {
            throw new UsageException("--contacts-connectivity refines --contacts; give --contacts FILE");
        }
        if (contacts != null && numbering.equalsIgnoreCase("raster")) {
            throw new UsageException("--contacts names the clusters by their canonical labels; leave out --numbering"
                    + " raster");
        }
        if (contactsConnectivity != null && !List.of(0, 4, 8, 6, 18, 26).contains(contactsConnectivity)) {
            throw new UsageException("--contacts-connectivity must be 4 or 8 (2D), 6, 18 or 26 (3D), got "
                    + contactsConnectivity);
        }
    }

    /** --measure, or --spacing with --regions: the table's rows get the measures. */
    private boolean measures() {
        return measure || (spacing != null && regions != null);
    }

    /** A NIfTI or NRRD file's voxel sizes as the cells' extents (1 on the axes where it has none). */
    private static Spacing fileSpacing(VoxelSpace space) {
        double[] v = space.voxelSize();
        return UsageException.whenInvalid(() -> new Spacing(v[0], v[1], v[2]));
    }

    /** --spacing as a Spacing (checked by checkRegions). */
    private Spacing givenSpacing() {
        String[] parts = spacing.split(",", -1);
        if (parts.length != 2 && parts.length != 3) {
            throw new UsageException("--spacing takes DX,DY or DX,DY,DZ, got " + spacing);
        }
        double[] s = new double[3];
        s[2] = 1;
        for (int i = 0; i < parts.length; i++) {
            try {
                s[i] = Double.parseDouble(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new UsageException("--spacing: " + parts[i] + " is not a number (in " + spacing + ")");
            }
        }
        return UsageException.whenInvalid(() -> new Spacing(s[0], s[1], s[2]));
    }

    /** --intensity refines --regions; standard input is read once. */
    private void checkRegions() {
        if (regions == null && intensity != null) {
            throw new UsageException("--intensity gives the values that --regions sums; give --regions FILE");
        }
        if (regions == null && measure) {
            throw new UsageException("--measure adds measures to the rows of --regions; give --regions FILE");
        }
        if (spacing != null && regions == null && contacts == null) {
            throw new UsageException("--spacing gives the units of --regions' measures and --contacts' area; give"
                    + " --regions FILE or --contacts FILE");
        }
        if (spacing != null) {
            givenSpacing();  // checked before any work
        }
        if (intensity != null && file != null && !intensity.isFile() && !file.isFile()) {
            throw new UsageException("FILE and --intensity cannot both be standard input (-)");
        }
    }

    /**
     * The --intensity grid, read as the labelled file is but not thresholded; it must have the extents
     * of {@code input}, and --region takes the same view of it.
     */
    private Intensity intensity(Grid input, Region view, Arena arena) throws IOException {
        GridReadOptions o = GridReadOptions.defaults().withFormat(format).withRawType(type).withColor(color);
        Grid values = read(intensity, dims == null ? o : o.withDims(dims), arena);
        if (!GridDims.of(values).equals(GridDims.of(input))) {
            throw new UsageException("--intensity " + intensity + " is " + GridDims.of(values) + ", the grid "
                    + GridDims.of(input) + ": they must have the same extents");
        }
        return Intensity.of(view == null ? values : view.of(values));
    }

    private GridReadOptions readOptions() {
        GridReadOptions o = GridReadOptions.defaults().withFormat(format).withRawType(type).withColor(color);
        if (dims != null) {
            o = o.withDims(dims);
        }
        if (threshold != null) {
            GridReadOptions base = o;
            o = UsageException.whenInvalid(() -> base.withThreshold(threshold));
        }
        return o;
    }

    /** The names of --numbering. */
    static final class OutNumberings extends Converters.Names {
        OutNumberings() {
            super(List.of("canonical", "raster"));
        }
    }

    /** --numbering raster, checked against the outputs it applies to. */
    private boolean rasterNumbering() {
        boolean raster = switch (numbering.toLowerCase(Locale.ROOT)) {
            case "canonical" -> false;
            case "raster" -> true;
            default -> throw new UsageException("unknown --numbering '" + numbering + "'; expected canonical or raster");
        };
        if (raster && out == null) {
            throw new UsageException("--numbering numbers the labels that --out writes; give --out FILE");
        }
        if (raster && bookkeeping.compact) {
            throw new UsageException("--compact and --numbering raster both renumber the labels; give one of them");
        }
        if (raster && (png != null || projection != null)) {
            throw new UsageException((png != null ? "--png" : "--projection")
                    + " colours the canonical labels; leave out --numbering raster");
        }
        return raster;
    }

    /** --periodic (every axis) or --periodic-axes with a subset of xyz; open boundaries otherwise. */
    private boolean[] periodicAxes() {
        if (periodicAxes == null) {
            return new boolean[] {periodic, periodic, periodic};
        }
        if (periodic) {
            throw new UsageException("give --periodic (every axis) or --periodic-axes, not both");
        }
        if (periodicAxes.isEmpty()) {
            throw new UsageException("--periodic-axes needs some of x, y and z");
        }
        boolean[] axes = new boolean[3];
        for (char c : periodicAxes.toCharArray()) {
            int axis = "xyz".indexOf(c);
            if (axis < 0 || axes[axis]) {
                throw new UsageException("--periodic-axes takes each of x, y and z at most once, got '" + periodicAxes
                        + "'");
            }
            axes[axis] = true;
        }
        return axes;
    }

    /** The CPU algorithms and the Java one choose their backend when "auto" is asked for. */
    private static Backend backendFor(Backend requested, MeshAlgorithm algorithm) {
        if (requested != Backend.AUTO) {
            return requested;
        }
        return switch (algorithm) {
            case JAVA -> Backend.JAVA;
            case CPU_RASTER, CPU_EQUIVALENCE -> Backend.CPU_SERIAL;
            case CPU_PARALLEL -> Backend.CPU_PARALLEL;
            default -> Backend.AUTO;
        };
    }

    /**
     * Reads the grid; I/O failures name the file or {@value Input#STANDARD_INPUT_NAME} (format errors
     * and missing files already do).
     */
    private static Grid read(Input input, GridReadOptions options, Arena arena) throws IOException {
        try {
            // raw cells are mapped, not read: no copy, and files larger than the host's memory label in slabs
            if (input.isFile() && GridReader.canMap(input.file(), options)) {
                return GridReader.map(input.file(), options, arena);
            }
            return GridReader.read(input, options, arena);
        } catch (NoSuchFileException | ImageFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // raw cells without --dims: the command line is incomplete (the message names the file); on a
            // stream, which has no extension, only the first bytes of PGM and PNG tell a format: raw needs naming
            boolean nameRaw = !input.isFile() && options.format() != GridFormat.RAW;
            throw new UsageException(e.getMessage() + ": give " + (nameRaw ? "--format raw " : "")
                    + "--dims WxH[xD] (and --type i32 for int32 cells)");
        } catch (IOException e) {
            throw new IOException(input + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code --region X,Y[,Z]:WxH[xD]}: corner (x, y, z) and extents (z 0 and depth 1 when left out,
     * which a 3D grid does not allow), read before any work and applied once there is a grid.
     */
    record Region(String text, int x, int y, int z, boolean hasZ, GridDims extent) {
        static Region parse(String text) {
            String form = "expected X,Y:WxH or X,Y,Z:WxHxD";
            String[] parts = text.split(":", -1);
            if (parts.length != 2) {
                throw new UsageException("bad --region '" + text + "': " + form);
            }
            String[] corner = parts[0].split(",", -1);
            if (corner.length != 2 && corner.length != 3) {
                throw new UsageException("bad --region '" + text + "': the corner needs 2 or 3 coordinates; " + form);
            }
            int[] c = new int[3];
            for (int i = 0; i < corner.length; i++) {
                try {
                    c[i] = Integer.parseInt(corner[i].strip());
                } catch (NumberFormatException e) {
                    throw new UsageException("bad --region '" + text + "': '" + corner[i] + "' is not an integer; "
                            + form);
                }
            }
            GridDims extent = UsageException.whenInvalid(() -> {
                try {
                    return GridDims.parse(parts[1]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("bad --region '" + text + "': " + e.getMessage());
                }
            });
            return new Region(text, c[0], c[1], c[2], corner.length == 3, extent);
        }

        /** The view of {@code grid} that this region names: not a copy. */
        Grid of(Grid grid) {
            if (grid.is3d() && !hasZ) {
                throw new UsageException("--region '" + text + "' is 2D, the grid " + GridDims.of(grid)
                        + " is 3D: give X,Y,Z:WxHxD");
            }
            return UsageException.whenInvalid(() -> grid.region(x, y, z, extent.width(), extent.height(),
                    extent.depth()));
        }
    }

    /**
     * The --generate spec, refused when an alloy would run past the documented limits (unless
     * --allow-long-generate) or its spins would not fit in the heap: both before any work.
     */
    private GridGenerators.Spec generatorSpec() {
        GridGenerators.Spec spec = UsageException.whenInvalid(() -> GridGenerators.Spec.parse(generator));
        if (!allowLongGenerate && spec.steps() > MAX_ALLOY_STEPS) {
            throw new UsageException("--generate " + generator + ": " + spec.steps() + " steps exceed the limit of "
                    + MAX_ALLOY_STEPS + "; give --allow-long-generate to run them");
        }
        if (!allowLongGenerate && spec.cellSteps() > MAX_ALLOY_CELL_STEPS) {
            throw new UsageException("--generate " + generator + ": " + spec.dims().cellCount() + " cells x "
                    + spec.steps() + " steps = " + spec.cellSteps() + " cell updates exceed the limit of "
                    + MAX_ALLOY_CELL_STEPS + "; give --allow-long-generate to run them");
        }
        HeapLimit.require(spec.heapBytes(), "--generate " + generator);
        return spec;
    }

    /**
     * Refuses --generate before anything is generated (a field of billions of cells takes minutes;
     * the labelling checks its needs only once the field is there) when the grid to label has more
     * cells than int32 labels number and the algorithm does not write int64 ones, or when the
     * field's cells and the labels exceed the host memory available. Device memory and the call's
     * working memory are left to the labelling's own check.
     */
    private void requireRoom(GridDims field, Region view, MeshOptions options, ComponentLabeler labeler, Arena arena) {
        // a region is part of the field (one reaching outside it is refused once there is a grid)
        long labelled = view == null ? field.cellCount() : Math.min(view.extent().cellCount(), field.cellCount());
        boolean pastInt = labelled > Integer.MAX_VALUE;
        MemoryNeeds oneCell;
        try {
            // one cell labelled as the grid will be: the library knows which algorithms write int64
            // labels, and reads what the host has available
            oneCell = labeler.memoryNeeds(Grid.allocate(arena, Grid.CellType.U8, 1, 1, 1),
                    MeshOptions.defaults().withAlgorithm(options.algorithm()).withWideLabels(pastInt));
        } catch (UnsupportedOperationException e) {
            throw new UsageException("--generate '" + generator + "': " + labelled + " cells to label"
                    + " need int64 labels (int32 labels number " + Integer.MAX_VALUE + "), which --algorithm "
                    + CliNames.of(options.algorithm()) + " does not write; --algorithm auto picks one that does");
        }
        long cells = field.cellCount(); // uint8
        int labelBytes = pastInt || options.wideLabels() ? Long.BYTES : Integer.BYTES; // as MeshOptions.labelBytesFor
        long labels = labelled > Long.MAX_VALUE / labelBytes ? Long.MAX_VALUE : labelled * labelBytes;
        long available = oneCell.hostAvailable();
        if (available >= 0 && (cells > available || labels > available - cells)) {
            throw new Ccl4jException(Ccl4jException.Status.OUT_OF_MEMORY, "--generate '" + generator + "': the "
                    + field + " field needs " + HeapLimit.size(cells) + " for its cells and " + HeapLimit.size(labels)
                    + " for " + (labelBytes == Long.BYTES ? "int64" : "int32") + " labels of " + labelled
                    + " cells, more than the " + HeapLimit.size(available) + " the host has available");
        }
    }

    /** The slabs' progress on standard error, from the first slab on: a grid labelled at once shows none. */
    private final class SlabProgress implements ProgressListener, AutoCloseable {
        private Progress shown;

        @Override
        public void progress(String stage, long done, long total) {
            if (shown == null) {
                shown = progressOptions.start(main, "mesh", total);
            }
            shown.reach(done, stage);
        }

        @Override
        public void close() {
            if (shown != null) {
                shown.close();
            }
        }
    }

    /** Generates the field; an alloy shows its sweeps as progress when they take a while. */
    private Grid generate(GridGenerators.Spec spec, Arena arena) {
        try (Progress progress = progressOptions.startQuietWhenShort(main, "generate " + spec.generator(),
                spec.steps())) {
            progress.show("generating " + generator);
            return spec.generate(arena, done -> progress.step());
        }
    }

    /** The label picture, one of the run's {@code outputs}: one PNG, or one per z-slice of a volume. */
    private static List<Path> writePictures(OutputFile.Group outputs, MeshLabels labels, Path png)
            throws IOException {
        int depth = labels.depth();
        List<Path> written = new ArrayList<>(depth);
        for (int z = 0; z < depth; z++) {
            Path slice = depth == 1 ? png : LabelImageWriter.slicePath(png, z, depth);
            int layer = z;
            outputs.write(slice, temporary -> LabelImageWriter.writePngSlice(labels, layer, temporary));
            written.add(slice);
        }
        return written;
    }

    /** A connectivity that does not fit the grid is a usage error, named with the grid's dimensions. */
    private static void checkConnectivity(MeshOptions options, Grid grid) {
        try {
            options.connectivityFor(grid);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--connectivity " + options.connectivity() + " does not fit the "
                    + (grid.is3d() ? "3D" : "2D") + " grid " + GridDims.of(grid) + ": use "
                    + (grid.is3d() ? "6, 18 or 26" : "4 or 8 (or 6, 18 or 26, the same on a single layer)"));
        }
    }

    /** What the summary says of a labelling, from its labels or its table. */
    private record Result(long clusters, long largest, int labelBytes, Timings timings) {
        static Result of(MeshLabels labels) {
            return new Result(labels.count(), labels.largestComponentSize(), labels.labelBytes(), labels.timings());
        }

        static Result of(MeshStatistics table) {
            long largest = 0;
            for (int r = 0; r < table.count(); r++) {
                largest = Math.max(largest, table.size(r));
            }
            return new Result(table.count(), largest, table.labelBytes(), table.timings());
        }

        /** The slabs the grid was labelled in, 1 for the whole grid at once. */
        int slabs() {
            return timings.phasesMs().containsKey("label slabs") ? timings.iterations() : 1;
        }
    }

    private static ObjectNode json(Grid grid, Result labels, MemoryNeeds needs) {
        Timings t = labels.timings();
        ObjectNode result = Json.object().put("width", grid.width()).put("height", grid.height())
                .put("depth", grid.depth()).put("cells", grid.cellCount()).put("clusters", labels.clusters())
                .put("largestCluster", labels.largest()).put("labelBytes", labels.labelBytes())
                .put("backend", CliNames.of(t.backend())).put("algorithm", CliNames.algorithm(t.algorithm()))
                .put("iterations", t.iterations()).put("slabs", labels.slabs());
        ObjectNode timings = result.putObject("timingsMs");
        timings.set("total", Json.number(t.totalMs()));
        t.phasesMs().forEach((phase, ms) -> timings.set(phase, Json.number(ms)));
        // what the labelling needed besides the cells, and what there was before it; -1: unknown
        result.putObject("memoryBytes").put("cells", grid.cells().byteSize()).put("labels", needs.labelsBytes())
                .put("hostWorking", needs.hostBytes()).put("device", needs.deviceBytes())
                .put("hostAvailable", needs.hostAvailable()).put("deviceAvailable", needs.deviceAvailable());
        return result;
    }

    private static void summary(PrintWriter out, String source, Grid grid, Result labels, MeshOptions options,
            MemoryNeeds memory, List<Path> pictures) {
        Timings t = labels.timings();
        out.printf("%s: %s %s grid, %d cells%n", source, GridDims.of(grid), grid.type().name().toLowerCase(Locale.ROOT),
                grid.cellCount());
        out.println("memory: " + memory);
        out.printf("clusters: %d, largest: %d cells (%s, connectivity %d, %s)%n", labels.clusters(),
                labels.largest(), CliNames.of(options.mode()), options.connectivityFor(grid),
                boundaries(options, grid));
        out.printf("backend: %s, algorithm: %s, %s%.3f ms", CliNames.of(t.backend()), CliNames.algorithm(t.algorithm()),
                labels.slabs() > 1 ? labels.slabs() + " slabs, " : "", t.totalMs());
        StringBuilder p = new StringBuilder();
        for (Map.Entry<String, Double> phase : t.phasesMs().entrySet()) {
            p.append(p.isEmpty() ? " (" : ", ").append(phase.getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.3f", phase.getValue()));
        }
        out.println(p.isEmpty() ? "" : p + ")");
        if (pictures.size() == 1) {
            out.println("picture: " + pictures.get(0));
        } else if (!pictures.isEmpty()) {
            out.printf("pictures: %s ... %s (%d slices)%n", pictures.get(0), pictures.get(pictures.size() - 1),
                    pictures.size());
        }
    }

    private static String boundaries(MeshOptions options, Grid grid) {
        String axes = (options.periodicX() ? "x" : "") + (options.periodicY() ? "y" : "")
                + (options.periodicZ() && grid.is3d() ? "z" : "");
        return axes.isEmpty() ? "open" : "periodic " + axes;
    }
}
