import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The Netty proxy: a reverse proxy on Netty alone — what is left under any Java proxy on this machine when even
 * Reactor Netty is gone. Every request is aggregated (bodies ≤ 1 MiB), sent to one upstream over a keep-alive
 * connection taken from a pool kept per event loop (the upstream connection lives on the client connection's own
 * thread: no hand-off), and the aggregated response is written back in one flush. Host replaced, X-Forwarded-For added;
 * nothing else (no log, no metrics, no timeouts, no streaming, no error mapping beyond closing the connection).
 * Measurement only (bench/floor.sh): java -cp LIBS NettyProxy.java PORT UPSTREAM [EVENT_LOOPS]
 */
public class NettyProxy {

	static final AttributeKey<Channel> CLIENT = AttributeKey.valueOf("client");

	static final FastThreadLocal<ArrayDeque<Channel>> IDLE = new FastThreadLocal<>() {
		@Override
		protected ArrayDeque<Channel> initialValue() {
			return new ArrayDeque<>();
		}
	};

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		URI upstream = URI.create(args[1]);
		int loops = (args.length > 2) ? Integer.parseInt(args[2]) : 1;
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, EpollIoHandler.newFactory());
		InetSocketAddress upstreamAddress = new InetSocketAddress(upstream.getHost(), upstream.getPort());
		String upstreamHost = upstream.getHost() + ":" + upstream.getPort();
		ServerBootstrap server = new ServerBootstrap().group(group)
			.channel(EpollServerSocketChannel.class)
			.childHandler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel ch) {
					ch.pipeline()
						.addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
								new Inbound(upstreamAddress, upstreamHost));
				}
			});
		Channel bound = server.bind("127.0.0.1", port).sync().channel();
		System.out.println("netty proxy on 127.0.0.1:" + port + " -> " + upstream + ", " + loops + " event loop(s)");
		bound.closeFuture().sync();
	}

	static final class Inbound extends SimpleChannelInboundHandler<FullHttpRequest> {

		private final InetSocketAddress upstream;

		private final String upstreamHost;

		Inbound(InetSocketAddress upstream, String upstreamHost) {
			super(false);
			this.upstream = upstream;
			this.upstreamHost = upstreamHost;
		}

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
			request.headers()
				.set(HttpHeaderNames.HOST, this.upstreamHost)
				.set("X-Forwarded-For", ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress());
			Channel client = ctx.channel();
			Channel idle = IDLE.get().pollLast();
			if (idle != null && idle.isActive()) {
				send(idle, client, request);
				return;
			}
			EventLoop loop = ctx.channel().eventLoop();
			ChannelFuture connect = new Bootstrap().group(loop)
				.channel(EpollSocketChannel.class)
				.handler(new ChannelInitializer<Channel>() {
					@Override
					protected void initChannel(Channel ch) {
						ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20), new Outbound());
					}
				})
				.connect(this.upstream);
			connect.addListener((ChannelFutureListener) (f) -> {
				if (f.isSuccess()) {
					send(f.channel(), client, request);
				}
				else {
					request.release();
					client.close();
				}
			});
		}

		private static void send(Channel upstream, Channel client, FullHttpRequest request) {
			upstream.attr(CLIENT).set(client);
			upstream.writeAndFlush(request, upstream.voidPromise());
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

	static final class Outbound extends SimpleChannelInboundHandler<FullHttpResponse> {

		Outbound() {
			super(false);
		}

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
			Channel client = ctx.channel().attr(CLIENT).getAndSet(null);
			boolean keepAlive = HttpUtil.isKeepAlive(response);
			if (keepAlive) {
				IDLE.get().addLast(ctx.channel());
			}
			else {
				ctx.close();
			}
			if (client != null && client.isActive()) {
				client.writeAndFlush(response, client.voidPromise());
			}
			else {
				response.release();
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			IDLE.get().remove(ctx.channel());
			Channel client = ctx.channel().attr(CLIENT).getAndSet(null);
			if (client != null) {
				client.close();
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

}
