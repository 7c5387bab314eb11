package dev.sluice.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hudi.keygen.BaseKeyGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HudiEnvTest {

  @ParameterizedTest
  @ValueSource(strings = {"Simple", "Complex", "Nonpartitioned", "Custom", "TimestampBased", "GlobalDelete"})
  void sparkKeyGeneratorsMapToLoadableAvroOnes(String kind) throws ClassNotFoundException {
    String spark = "org.apache.hudi.keygen." + kind + "KeyGenerator";
    // the Spark class is not on a Java-client classpath: that is why the oracle maps it
    assertThrows(ClassNotFoundException.class, () -> Class.forName(spark));
    Class<?> avro = Class.forName(HudiEnv.avroKeyGenerator(spark));
    assertTrue(BaseKeyGenerator.class.isAssignableFrom(avro), avro.getName());
  }

  @ParameterizedTest
  @ValueSource(strings = {"org.apache.hudi.keygen.SimpleAvroKeyGenerator", "com.example.MyKeyGenerator"})
  void otherClassesAreKept(String name) {
    assertEquals(name, HudiEnv.avroKeyGenerator(name));
  }
}
