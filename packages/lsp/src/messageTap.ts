import { Message, type ConnectionOptions, type DataCallback, type Disposable, type MessageReader } from 'vscode-jsonrpc/node';

/**
 * Handles a received message itself instead of the MessageConnection: returns true when it took it.
 * It is called in arrival order, either as the message is read or when the connection's queue
 * reaches it.
 */
export type MessageTap = (message: Message) => boolean;

/** A reader and connection options for `createMessageConnection`, with `tap` in front of its dispatch. */
export interface TappedReader {
  reader: MessageReader;
  options: ConnectionOptions;
}

const CANCEL = '$/cancelRequest';
const isCancel = (message: Message) => Message.isNotification(message) && message.method === CANCEL;

/**
 * Lets some received messages skip vscode-jsonrpc's MessageConnection (its queue's setImmediate
 * turn, its request and response plumbing) without changing the order in which messages are
 * handled. The connection handles each message in a later turn (its queue); a message read while
 * the queue holds nothing goes to `tap` at once, as the connection would have handled it next; one
 * read while earlier ones still wait is queued behind them and offered to `tap` when the queue
 * reaches it (the connection's `messageStrategy`). The reader's framing and parsing stay
 * vscode-jsonrpc's.
 *
 * `$/cancelRequest` is not counted as waiting: the connection consumes it in its read callback
 * when the request it names is running, and queues it otherwise. A cancel `tap` takes from the
 * queue is still given to the connection, to forget it (it remembers cancels of ids it has not seen).
 */
export function tapMessages(inner: MessageReader, tap: MessageTap): TappedReader {
  // Messages (cancels aside) handed to the connection that its queue has not reached yet.
  let waiting = 0;
  const reader: MessageReader = {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    listen(callback: DataCallback): Disposable {
      return inner.listen((message) => {
        if (waiting === 0 && tap(message)) return;
        if (!isCancel(message)) waiting++;
        callback(message);
      });
    },
    dispose: () => inner.dispose(),
  };
  const options: ConnectionOptions = {
    messageStrategy: {
      handleMessage(message, next) {
        const cancel = isCancel(message);
        if (!cancel && waiting > 0) waiting--;
        if (tap(message) && !cancel) return;
        return next(message);
      },
    },
  };
  return { reader, options };
}
