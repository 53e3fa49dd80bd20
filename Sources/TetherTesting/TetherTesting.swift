import Tether
