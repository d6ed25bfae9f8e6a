refused: no float or double array read (read-only) or stored at E + the loop variable
