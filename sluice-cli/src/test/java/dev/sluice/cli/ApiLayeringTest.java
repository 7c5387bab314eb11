package dev.sluice.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API line (issue 17): front ends (the CLI) and the tools use the engine only through {@code dev.sluice.api} and the
 * storage plug-in, and no public signature in {@code dev.sluice.api} hands out an engine ({@code dev.sluice.internal})
 * type. Runs here because the CLI's test class path sees the core, the tools and the CLI.
 */
class ApiLayeringTest {
  private static final String INTERNAL = "dev.sluice.internal";
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // main classes only: neither test-classes folders nor the core's test jar (its fixtures may reach anywhere)
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("dev.sluice");
  }

  @Test
  void theImportSeesEveryLayer() {
    // a rule over an empty import would pass whatever the code does
    for (String pkg : new String[] {"dev.sluice.api", "dev.sluice.cli", "dev.sluice.tools.records", "dev.sluice.tools.health",
        "dev.sluice.internal.table", "dev.sluice.sql"}) {
      assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals(pkg)), "no classes imported from " + pkg);
    }
  }

  @Test
  void cliAndToolsNeverUseTheEngineInternals() {
    noClasses().that().resideInAnyPackage("dev.sluice.cli..", "dev.sluice.tools..", "dev.sluice.sql..")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + "..")
        .check(classes);
  }

  @Test
  void cliAndToolsDependOnlyOnTheApiStorageToolsAndAllowedLibraries() {
    // snappy-java: NativeLibraryCache asks it (OSInfo) which folder of its jar holds this platform's library
    classes().that().resideInAnyPackage("dev.sluice.cli..", "dev.sluice.tools..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("dev.sluice.api..", "dev.sluice.storage..",
            "dev.sluice.tools..", "dev.sluice.sql..", "dev.sluice.cli..", "java..", "javax..", "picocli..",
            "com.fasterxml.jackson..", "org.apache.avro..", "org.apache.parquet..", "org.xerial.snappy..")
        .check(classes);
  }

  @Test
  void theSqlEngineStaysInSluiceSql() {
    // DuckDB and Arrow only behind dev.sluice.sql: the CLI prints what SluiceSql returns, the core never sees them
    noClasses().that().resideOutsideOfPackage("dev.sluice.sql..")
        .should().dependOnClassesThat().resideInAnyPackage("org.duckdb..", "org.apache.arrow..")
        .check(classes);
    classes().that().resideInAPackage("dev.sluice.sql..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("dev.sluice.api..", "dev.sluice.sql..", "java..",
            "org.duckdb..", "org.apache.arrow..", "com.fasterxml.jackson..", "org.apache.avro..")
        .check(classes);
  }

  @Test
  void noPublicApiSignatureHasAnEngineType() {
    List<String> leaks = new ArrayList<>();
    int checked = 0;
    for (JavaClass c : classes) {
      if (!c.getPackageName().startsWith("dev.sluice.api") || !visible(c)) {
        continue;
      }
      checked++;
      c.getRawSuperclass().filter(ApiLayeringTest::internal)
          .ifPresent(s -> leaks.add(c.getName() + " extends " + s.getName()));
      c.getSuperclass().ifPresent(s -> check(c.getName() + " superclass", s, leaks));
      for (JavaType i : c.getInterfaces()) {
        check(c.getName() + " implements", i, leaks);
      }
      for (JavaMember m : c.getMembers()) {
        if (!m.getModifiers().contains(JavaModifier.PUBLIC) && !m.getModifiers().contains(JavaModifier.PROTECTED)) {
          continue;
        }
        String where = c.getName() + "." + m.getName();
        if (m instanceof JavaField f) {
          check(where + " (field)", f.getType(), leaks);
        } else if (m instanceof JavaCodeUnit u) {
          check(where + " returns", u.getReturnType(), leaks);
          for (JavaType p : u.getParameterTypes()) {
            check(where + " parameter", p, leaks);
          }
          for (JavaClass t : u.getExceptionTypes()) {
            if (internal(t)) {
              leaks.add(where + " throws " + t.getName());
            }
          }
        }
      }
    }
    assertTrue(checked > 20, "only " + checked + " public API types found");
    assertEquals(List.of(), leaks, "public API signatures with engine types");
  }

  /** Public, and every enclosing class public too (a public nested class of a package-private class is not API). */
  private static boolean visible(JavaClass c) {
    Optional<JavaClass> at = Optional.of(c);
    while (at.isPresent()) {
      if (!at.get().getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
      at = at.get().getEnclosingClass();
    }
    return true;
  }

  private static void check(String where, JavaType type, List<String> leaks) {
    for (JavaClass raw : type.getAllInvolvedRawTypes()) {
      if (internal(raw)) {
        leaks.add(where + " " + type.getName() + " (" + raw.getName() + ")");
      }
    }
  }

  private static boolean internal(JavaClass c) {
    return c.getPackageName().startsWith(INTERNAL);
  }
}
