package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads JSON Lines: one JSON object per line, blank lines skipped. One streaming parser runs over the whole
 * file (no tree per record); a second value on the line where the previous one ended is an error.
 */
final class JsonLinesSource implements CloseableIterator<GenericRecord>, NumberedPosition {
  /**
   * A parser factory enforcing the input limits: Jackson stops at a string longer than the value limit or nesting
   * deeper than the depth limit while reading, so neither is held in memory whole first.
   */
  static JsonFactory factory(InputOptions options) {
    return JsonFactory.builder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        // doubles parsed by jackson-core's bundled FastDoubleParser: the same correctly rounded value as the JDK's
        // parser without its big-integer arithmetic (see TextValues.parseFloat)
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxStringLength(options.maxValueLength())
            .maxNestingDepth(options.maxNestingDepth())
            .build())
        .build();
  }

  private final Path file;
  private final String name;
  private final JsonParser parser;
  private final JsonValueReader reader;
  private final InputOptions options;
  private GenericRecord next;
  private boolean done;
  private long lastLine = -1;
  private long nextLine = -1;
  private long returnedLine = -1;

  private JsonLinesSource(Path file, JsonParser parser, JsonValueReader reader, InputOptions options) {
    this.file = file;
    this.name = file.getFileName().toString();
    this.parser = parser;
    this.reader = reader;
    this.options = options;
  }

  static JsonLinesSource open(Path file, Schema schema, InputOptions options) {
    JsonValueReader reader = JsonReaders.compile(schema, options);
    InputStream in = null;
    try {
      in = Files.newInputStream(file);
      return new JsonLinesSource(file, factory(options).createParser(in), reader, options);
    } catch (IOException e) {
      closeQuietly(in, e);
      throw SluiceException.storage("open", file.toString(), e);
    }
  }

  private static void closeQuietly(InputStream in, IOException failure) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        failure.addSuppressed(e);
      }
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      // After a failure the input position is unknown: end the iteration rather than read on from it.
      done = true;
      next = advance();
      done = next == null;
    }
    return next != null;
  }

  @Override
  public GenericRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    GenericRecord out = next;
    next = null;
    returnedLine = nextLine;
    return out;
  }

  @Override
  public String positionPrefix() {
    return name + ":";
  }

  @Override
  public long positionNumber() {
    return returnedLine;
  }

  private GenericRecord advance() {
    long start = -1;
    try {
      JsonToken t = parser.nextToken();
      if (t == null) {
        return null;
      }
      long line = parser.currentTokenLocation().getLineNr();
      if (line == lastLine) {
        throw SluiceException.badInput(name + ":" + line, null, "a second JSON value starts on the line where the previous one ended",
            "one JSON object per line");
      }
      if (t != JsonToken.START_OBJECT) {
        throw SluiceException.badInput(name + ":" + line, null, JsonReaders.shown(parser) + " is not a JSON object",
            "one JSON object per line");
      }
      start = line;
      GenericRecord rec = (GenericRecord) reader.read(parser);
      lastLine = parser.currentTokenLocation().getLineNr();
      nextLine = start;
      return rec;
    } catch (FieldError e) {
      throw e.toException(name + ":" + start);
    } catch (OutOfMemoryError | StackOverflowError e) {
      long at = start > 0 ? start : lastLine + 1;
      releaseBuffers(e);
      throw SluiceException.outOfResources("Reading input", name + ":" + at, e);
    } catch (StreamConstraintsException e) {
      throw tooLarge(e, fieldBeingRead(), name + ":" + (start > 0 ? start : parser.currentLocation().getLineNr()),
          options);
    } catch (StreamReadException e) {
      throw malformed(e, start);
    } catch (IOException e) {
      throw SluiceException.storage("read", file.toString(), e);
    }
  }

  /**
   * Closes the parser after the heap ran out inside it: the text of the value being read (nearly all of the heap) is
   * held by the parser's buffers, and without freeing them the error that names the input line could not even be
   * made. The source is unusable afterwards anyway.
   */
  private void releaseBuffers(Throwable exhausted) {
    try {
      parser.close();
    } catch (IOException closeFailure) {
      exhausted.addSuppressed(closeFailure);
    }
  }

  /** The top-level member the parser is inside (the table field), if any. */
  private String fieldBeingRead() {
    com.fasterxml.jackson.core.JsonStreamContext c = parser.getParsingContext();
    String field = null;
    while (c != null && !c.inRoot()) {
      if (c.inObject() && c.getCurrentName() != null) {
        field = c.getCurrentName();
      }
      c = c.getParent();
    }
    return field;
  }

  /**
   * A value over one of the input limits, as bad input at {@code where} naming the field being read and the setting
   * that raises the limit.
   */
  static SluiceException tooLarge(StreamConstraintsException e, String field, String where, InputOptions options) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    if (m.contains("nesting depth")) {
      return SluiceException.badInput(where, field, "the JSON nests arrays and objects deeper than "
          + options.maxNestingDepth() + " levels", "at most " + options.maxNestingDepth() + " levels (raise "
          + ConfigKeys.INPUT_MAX_NESTING_DEPTH.name() + " to allow more)");
    }
    if (m.contains("String value length")) {
      return SluiceException.badInput(where, field, "a text value is longer than " + options.maxValueLength()
          + " characters", "at most " + options.maxValueLength() + " characters (raise "
          + ConfigKeys.INPUT_MAX_VALUE_LENGTH.name() + " to allow more)");
    }
    return SluiceException.badInput(where, field, "the JSON is over a parser limit: " + cleanMessage(m), null);
  }

  /** A parse error, placed at the line where the object began and pointing at where the parser gave up. */
  private SluiceException malformed(StreamReadException e, long start) {
    JsonLocation at = e.getLocation();
    long line = at != null ? at.getLineNr() : start;
    String position = at == null ? "" : (start > 0 && line != start ? " at line " + line + ", column " : " at column ")
        + at.getColumnNr();
    return SluiceException.badInput(name + ":" + (start > 0 ? start : line), null,
        "malformed JSON" + position + ": " + cleanMessage(e.getOriginalMessage()), "one JSON object per line");
  }

  /** Jackson's message without its source/location boilerplate. */
  static String cleanMessage(String message) {
    if (message == null) {
      return "unreadable";
    }
    return message.replaceAll("\\s*\\(for [^()]*\\[Source:[^\\]]*\\]\\)", "")
        .replaceAll("\\s*at \\[Source:[^\\]]*\\]", "")
        .replaceAll("\\s*\\[Source:[^\\]]*\\]", "")
        .replace('\n', ' ')
        .trim();
  }

  @Override
  public void close() {
    done = true;
    next = null;
    try {
      parser.close();
    } catch (IOException e) {
      throw SluiceException.storage("close", file.toString(), e);
    }
  }
}
