import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local as the local stack and the tests run it (`infra/local/src/dynamo.ts`), started in Java's
 * single-file source mode with DynamoDB Local's own arguments:
 * - it listens on 127.0.0.1 only (DynamoDB Local itself has no option for the address and listens on every
 *   interface): its Jetty connectors get the loopback host before they start;
 * - it stops with the process that started it, however that one ends (SIGKILL included): it exits when its
 *   parent process is gone or when its standard input (a pipe from the parent) reaches its end.
 */
public class LoopbackDynamo {
  public static void main(String[] args) throws Exception {
    ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // the parent writes nothing: only the end of the pipe matters
        }
      } catch (Exception ignored) {
        // a closed pipe is the same end
      }
      System.exit(0);
    }, "parent-watch");
    stdin.setDaemon(true);
    stdin.start();

    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector c : server.getConnectors()) {
      if (c instanceof ServerConnector sc) sc.setHost("127.0.0.1");
    }
    proxy.start();
    proxy.join();
  }
}
