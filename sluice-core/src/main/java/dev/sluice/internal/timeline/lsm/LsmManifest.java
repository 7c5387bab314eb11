package dev.sluice.internal.timeline.lsm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The content of {@code manifest_<N>}: every valid data file of snapshot N with its length, as Hudi's
 * {@code HoodieLSMTimelineManifest} serializes it (Jackson's default pretty printer,
 * {@code {"files" : [ {"fileName" : ..., "fileLen" : ...}, ... ]}}). Files are kept in the order they were added.
 *
 * @param files the valid files
 */
public record LsmManifest(List<Entry> files) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The manifest of an archive without snapshots. */
  public static final LsmManifest EMPTY = new LsmManifest(List.of());

  /** Copies the list. */
  public LsmManifest {
    files = List.copyOf(files);
  }

  /**
   * One data file.
   *
   * @param fileName {@code <min>_<max>_<layer>.parquet}
   * @param fileLen its length in bytes
   */
  public record Entry(String fileName, long fileLen) {
    /** Rejects a null name. */
    public Entry {
      Objects.requireNonNull(fileName, "fileName");
    }
  }

  /** The file names, in manifest order. */
  public List<String> fileNames() {
    return files.stream().map(Entry::fileName).toList();
  }

  /** True if {@code fileName} is one of the valid files. */
  public boolean contains(String fileName) {
    return files.stream().anyMatch(e -> e.fileName().equals(fileName));
  }

  /** This manifest without {@code removed} and with {@code added} appended ({@code HoodieLSMTimelineManifest.copy}). */
  LsmManifest replacing(Collection<String> removed, Entry added) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : files) {
      if (!removed.contains(e.fileName())) {
        out.add(e);
      }
    }
    out.add(added);
    return new LsmManifest(out);
  }

  /** The bytes Hudi writes for this manifest (UTF-8 JSON, pretty-printed, no trailing newline). */
  public byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode list = root.putArray("files");
    for (Entry e : files) {
      ObjectNode o = list.addObject();
      o.put("fileName", e.fileName());
      o.put("fileLen", e.fileLen());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw Errors.internal("could not serialize an LSM manifest", e);
    }
  }

  /**
   * Parses a manifest's bytes; {@code where} names the file in errors. Empty content is an empty manifest, as Hudi
   * reads it; unknown fields are ignored, as Hudi's reader ignores them.
   */
  public static LsmManifest parse(byte[] content, String where) {
    if (content.length == 0) {
      return EMPTY;
    }
    JsonNode root;
    try {
      root = JSON.readTree(content);
    } catch (IOException e) {
      throw Errors.badTable(where, "is not a JSON manifest: " + e.getMessage(),
          "Restore the file, or remove it and its _version_ so that the previous snapshot is read.");
    }
    JsonNode files = root == null ? null : root.get("files");
    List<Entry> out = new ArrayList<>();
    if (files != null && !files.isNull()) {
      if (!files.isArray()) {
        throw Errors.badTable(where, "has a 'files' field that is not a list", "Restore the manifest file.");
      }
      for (JsonNode f : files) {
        JsonNode name = f.get("fileName");
        JsonNode len = f.get("fileLen");
        if (name == null || !name.isTextual() || (len != null && !len.canConvertToLong())) {
          throw Errors.badTable(where, "has a file entry without a fileName or with a fileLen that is not a number: "
              + f, "Restore the manifest file.");
        }
        out.add(new Entry(name.asText(), len == null ? 0 : len.asLong()));
      }
    }
    return new LsmManifest(out);
  }
}
