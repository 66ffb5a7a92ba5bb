/**
 * Connected components of Spark edge tables, labelled by ccl4j in every executor:
 * {@link org.ccl4j.spark.SparkComponentLabeler}. Spark 4 (Scala 2.13) is provided by the cluster.
 */
package org.ccl4j.spark;
