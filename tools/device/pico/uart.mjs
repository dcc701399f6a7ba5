// A UART of the emulated Pico as the chip has it: a transmit FIFO that a shift register empties
// at the baud rate, and a transmit interrupt raised only when the FIFO drains through its
// trigger level. rp2040js 1.4 sends a written byte at once, reports the transmit FIFO always
// empty and raises the transmit interrupt again on every check, even just after the firmware
// cleared it: MicroPython's rp2 UART enables that interrupt (uart_set_irq_enables(uart, true,
// true)), so once a UART is opened its handler runs forever and the chip stops answering, even
// Ctrl-C. A chip's UARTs are replaced by this model (chip.mjs); a byte that leaves goes to
// `onWire(byte, ns)`: to the other chip of a link (link.mjs), or nowhere.
//
// Receiving stays rp2040js's: feedByte() puts a byte in the 32-byte receive FIFO and raises the
// receive interrupt; receive() here counts the bytes that find the FIFO full (an overrun: a real
// UART loses them too) or the UART off (the firmware has not opened it: nothing listens).

const UARTDR = 0x0;
const TXFF = 1 << 5;
const TXFE = 1 << 7;
const RXFF = 1 << 6;
const RXFE = 1 << 4;
const BUSY = 1 << 3;
const TXINTR = 1 << 5;
const FIFO = 32;
const TX_TRIGGER = [4, 8, 16, 24, 28];   // UARTIFLS TXIFLSEL: 1/8 .. 7/8 of the FIFO

export class UartPort {
  constructor(chip, index) {
    const uart = chip.mcu.uart[index];
    this.uart = uart;
    this.clock = chip.clock;
    this.fifo = [];
    this.shifting = -1;           // the byte in the shift register, -1 when idle
    this.ifls = 0x12;             // UARTIFLS at reset: both trigger levels at 1/2
    this.sent = 0;
    this.overruns = 0;            // bytes that found the receive FIFO full
    this.unheard = 0;             // bytes that came while the UART was off
    this.onWire = null;
    this.alarm = this.clock.createAlarm(() => this.shifted());
    const port = this;
    uart.checkInterrupts = function checkInterrupts() {
      this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
    };
    Object.defineProperty(uart, 'flags', {
      get() {
        const n = port.fifo.length;
        return (this.rxFIFO.full ? RXFF : 0) | (this.rxFIFO.empty ? RXFE : 0) | (n === 0 ? TXFE : 0)
          | (n >= port.depth() ? TXFF : 0) | (n > 0 || port.shifting >= 0 ? BUSY : 0);
      },
    });
    const write = uart.writeUint32.bind(uart);
    const read = uart.readUint32.bind(uart);
    uart.writeUint32 = (offset, value) => {
      if (offset === UARTDR) {
        port.push(value & 0xff);
      } else if (offset === 0x34) {   // UARTIFLS, which rp2040js does not keep
        port.ifls = value & 0x3f;
      } else {
        write(offset, value);
      }
    };
    uart.readUint32 = (offset) => (offset === 0x34 ? port.ifls : read(offset));
  }

  depth() {
    return this.uart.fifosEnabled ? FIFO : 1;
  }

  trigger() {
    return this.uart.fifosEnabled ? TX_TRIGGER[this.ifls & 7] || 4 : 0;
  }

  // Bits a character takes on the wire: start, data, parity, stop (UARTLCR_H).
  bits() {
    const lcr = this.uart.lineCtrlRegister;
    return 1 + this.uart.wordLength + (lcr & 2 ? 1 : 0) + (lcr & 8 ? 2 : 1);
  }

  byteNs() {
    return this.bits() * 1e9 / this.uart.baudRate;
  }

  push(byte) {
    if (!this.uart.enabled || !this.uart.txEnabled) return;
    if (this.fifo.length >= this.depth()) return;   // a write to a full FIFO is lost
    this.fifo.push(byte);
    if (this.fifo.length > this.trigger()) {
      this.uart.interruptStatus &= ~TXINTR;          // filled above the trigger level
      this.uart.checkInterrupts();
    }
    if (this.shifting < 0) this.shiftNext();
  }

  shiftNext() {
    const before = this.fifo.length;
    this.shifting = this.fifo.shift();
    if (before > this.trigger() && this.fifo.length <= this.trigger()) {
      this.uart.interruptStatus |= TXINTR;           // drained through the trigger level
      this.uart.checkInterrupts();
    }
    this.alarm.schedule(this.byteNs());
  }

  shifted() {
    const byte = this.shifting;
    this.shifting = -1;
    this.sent++;
    if (this.onWire) this.onWire(byte, this.clock.nanos);
    if (this.fifo.length) this.shiftNext();
  }

  // A byte from the wire has arrived (its stop bit is in).
  receive(byte) {
    const uart = this.uart;
    if (!uart.enabled || !uart.rxEnabled) {
      this.unheard++;
    } else if (uart.rxFIFO.full) {
      this.overruns++;
    } else {
      uart.feedByte(byte);
    }
  }
}
