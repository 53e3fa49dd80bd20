import CNcurses
import Tether
